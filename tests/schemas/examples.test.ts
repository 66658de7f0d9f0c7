// Every schema compiles in ajv strict mode, documents itself, and agrees with its example instances.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getValidator, readSchema, schemaDir, schemaNames, validate } from '../../schemas/index.js';

interface Example {
  description: string;
  data: unknown;
}
interface ExampleFile {
  schema: string;
  valid: Example[];
  invalid: Example[];
}

const names = schemaNames();
const examplesDir = `${schemaDir}/examples`;

function readExamples(name: string): ExampleFile {
  return JSON.parse(readFileSync(`${examplesDir}/${name}.json`, 'utf8')) as ExampleFile;
}

describe('schemas', () => {
  it('are present', () => {
    expect(names.length).toBeGreaterThan(0);
  });

  it('every examples file belongs to a schema', () => {
    const orphans = readdirSync(examplesDir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .filter((name) => !names.includes(name));
    expect(orphans).toEqual([]);
  });

  it('an unknown schema name throws', () => {
    expect(() => validate('no-such-schema', {})).toThrow(/Unknown schema 'no-such-schema'/);
  });

  describe.each(names)('%s', (name) => {
    it('compiles in strict mode', () => {
      expect(() => getValidator(name)).not.toThrow();
    });

    it('has a title and a description', () => {
      const schema = readSchema(name);
      expect(typeof schema.title === 'string' && schema.title.length > 0, 'title').toBe(true);
      expect(typeof schema.description === 'string' && schema.description.length > 20, 'description').toBe(true);
    });

    it('has an examples file with at least two valid and two invalid instances', () => {
      expect(existsSync(`${examplesDir}/${name}.json`), `schemas/examples/${name}.json`).toBe(true);
      const file = readExamples(name);
      expect(file.schema).toBe(name);
      expect(file.valid.length).toBeGreaterThanOrEqual(2);
      expect(file.invalid.length).toBeGreaterThanOrEqual(2);
    });

    it('accepts every valid example and rejects every invalid one', () => {
      if (!existsSync(`${examplesDir}/${name}.json`)) throw new Error(`schemas/examples/${name}.json is missing`);
      const file = readExamples(name);
      const problems: string[] = [];
      for (const example of file.valid) {
        const result = validate(name, example.data);
        if (!result.valid) problems.push(`valid example "${example.description}" was rejected: ${result.errors.join('; ')}`);
      }
      for (const example of file.invalid) {
        if (validate(name, example.data).valid) problems.push(`invalid example "${example.description}" was accepted`);
      }
      expect(problems).toEqual([]);
    });
  });
});
