// The committed schemas/types.ts must be exactly what the generator makes from the current schemas.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTypes, typesFile } from '../../schemas/generate-types.js';

describe('schemas/types.ts', () => {
  it('matches a fresh generation from schemas/*.schema.json', async () => {
    const committed = readFileSync(typesFile, 'utf8');
    const fresh = await generateTypes();
    if (committed !== fresh) {
      const a = committed.split('\n');
      const b = fresh.split('\n');
      let line = 0;
      while (line < a.length && a[line] === b[line]) line += 1;
      throw new Error(
        `schemas/types.ts is stale: run npm run gen:types and commit the result.\n` +
          `First difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end of file)'}\n  generated: ${b[line] ?? '(end of file)'}`,
      );
    }
    expect(committed).toBe(fresh);
  }, 60_000);
});
