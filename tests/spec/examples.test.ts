// JSON examples in the spec that name a schema (```json schema=x, ```ndjson schema=x) must validate.
import { describe, expect, it } from 'vitest';
import { allSchemaExamples } from '../../spec/build-index.js';
import { validate } from '../../schemas/index.js';

describe('spec examples', () => {
  const examples = allSchemaExamples();

  it('has examples to check', () => {
    expect(examples.length).toBeGreaterThan(20);
  });

  for (const example of examples) {
    it(`${example.file}:${example.line} validates as ${example.schema}`, () => {
      const documents = example.language === 'ndjson' ? example.text.split('\n').filter((line) => line.trim() !== '') : [example.text];
      for (const text of documents) {
        const value: unknown = JSON.parse(text);
        const result = validate(example.schema, value);
        expect(result.errors, `${example.file}:${example.line} (${example.schema})`).toEqual([]);
      }
    });
  }
});
