// readSchemaFile, through which the runner reads its config, expectations and reports: the caller's error for a file
// that cannot be read or parsed and for one its schema refuses, the parsed data otherwise.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSchemaFile } from '../../runner/json-file.js';

const errors = {
  unreadable: (message: string) => new Error(`unreadable: ${message}`),
  invalid: (problems: string[]) => new Error(`invalid: ${problems.join('; ')}`),
};

const dir = mkdtempSync(join(tmpdir(), 'fc-json-file-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('readSchemaFile', () => {
  it('answers the parsed file when its schema accepts it', () => {
    const data = { expectations: [{ test: 'a.test.ts > A > b', signature: { status: 500 }, reason: 'known' }] };
    expect(readSchemaFile(file('valid.json', JSON.stringify(data)), 'expectations', errors)).toEqual(data);
  });

  it("throws the caller's unreadable error for a missing file and for text that is not JSON", () => {
    expect(() => readSchemaFile(join(dir, 'missing.json'), 'expectations', errors)).toThrow(/^unreadable: ENOENT/);
    expect(() => readSchemaFile(file('broken.json', '{"expectations": ['), 'expectations', errors)).toThrow(/^unreadable: /);
  });

  it("throws the caller's invalid error, with the schema's complaints, for JSON the schema refuses", () => {
    const refused = file('refused.json', JSON.stringify({ expectations: [{ test: 'a.test.ts > A > b', signature: {} }] }));
    expect(() => readSchemaFile(refused, 'expectations', errors)).toThrow(/^invalid: .*reason/);
  });
});
