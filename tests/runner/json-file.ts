// Reading a JSON file the runner is given (config, expectations, reports) and checking it against its schema.
import { readFileSync } from 'node:fs';
import { validate } from '../../schemas/index.js';

/** What a caller's error says when the file cannot be read or parsed, or does not match the schema. */
export interface JsonFileErrors {
  unreadable(message: string): Error;
  invalid(errors: string[]): Error;
}

/** The parsed file, valid against `schema`; throws the caller's error otherwise. */
export function readSchemaFile(path: string, schema: string, errors: JsonFileErrors): unknown {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw errors.unreadable((err as Error).message);
  }
  const check = validate(schema, data);
  if (!check.valid) throw errors.invalid(check.errors);
  return data;
}
