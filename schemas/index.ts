// Loads every schemas/<name>.schema.json into one strict ajv (draft 2020-12) instance and validates values
// against them by name. The schema files are the single source of truth of the wire; this module only reads.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is module.exports, which carries the plugin as `default`.
const addFormats = formatsModule.default;

export const schemaDir: string = dirname(fileURLToPath(import.meta.url));

export const SCHEMA_ID_BASE = 'https://fauna-conformance.dev/schemas/';
const SUFFIX = '.schema.json';
const BODY_LIMIT = 2048;

export function schemaId(name: string): string {
  return `${SCHEMA_ID_BASE}${name}${SUFFIX}`;
}

export function schemaNames(): string[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith(SUFFIX))
    .map((file) => file.slice(0, -SUFFIX.length))
    .sort();
}

export function readSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${schemaDir}/${name}${SUFFIX}`, 'utf8')) as Record<string, unknown>;
}

let shared: Ajv2020 | undefined;

// Schemas are added (not compiled) up front so cross-file $refs resolve; each is compiled on first use.
// Strict mode with strictTypes and strictTuples as errors; strictRequired stays off (ajv's default) because rules
// such as "never both collection and class" name properties in `not`/`if` subschemas, which it rejects.
export function getAjv(): Ajv2020 {
  if (shared) return shared;
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  addFormats(ajv);
  for (const name of schemaNames()) {
    const schema = readSchema(name);
    if (schema.$id !== schemaId(name)) {
      throw new Error(`schemas/${name}${SUFFIX}: $id must be ${schemaId(name)}, found ${String(schema.$id)}`);
    }
    ajv.addSchema(schema);
  }
  shared = ajv;
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

export function getValidator(name: string): ValidateFunction {
  const cached = compiled.get(name);
  if (cached) return cached;
  const ajv = getAjv();
  const fn = ajv.getSchema(schemaId(name));
  if (!fn) throw new Error(`Unknown schema '${name}'. Known schemas: ${schemaNames().join(', ')}`);
  compiled.set(name, fn);
  return fn;
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  return `${path} ${error.message ?? 'is invalid'}`;
}

export function validate(name: string, value: unknown): { valid: boolean; errors: string[] } {
  const fn = getValidator(name);
  const valid = fn(value) as boolean;
  return { valid, errors: valid ? [] : [...new Set((fn.errors ?? []).map(describeError))] };
}

export function assertValid(name: string, value: unknown): void {
  const { valid, errors } = validate(name, value);
  if (valid) return;
  let body = JSON.stringify(value);
  if (body === undefined) body = String(value);
  if (body.length > BODY_LIMIT) body = `${body.slice(0, BODY_LIMIT)}… (${body.length} characters in all)`;
  throw new Error(`Value does not match schema '${name}':\n  ${errors.join('\n  ')}\nBody: ${body}`);
}
