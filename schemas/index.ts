// Loads every schemas/<name>.schema.json into one strict ajv (draft 2020-12) instance and validates values
// against them by name. The schema files are the single source of truth of the wire; this module only reads.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';

// ajv-formats and ajv's standalone module are CommonJS; under NodeNext their default import is module.exports,
// which carries the function as `default`.
const addFormats = formatsModule.default;
const standaloneCode = standaloneModule.default;

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

/**
 * `all` reports every error (what validate() and getValidator() show); `first` stops at the first one. A value is
 * valid under one exactly when it is under the other, and `first` is 10-20 times faster on valid values of the
 * schemas with oneOf branches (every failing branch would otherwise collect all its errors), so validate() asks it
 * for the verdict and `all` only for the errors of an invalid value.
 */
type Mode = 'all' | 'first';

// Schemas are added (not compiled) up front so cross-file $refs resolve; each is compiled on first use.
// Strict mode with strictTypes and strictTuples as errors; strictRequired stays off (ajv's default) because rules
// such as "never both collection and class" name properties in `not`/`if` subschemas, which it rejects.
// code.source keeps each compiled function's source, so it can be written to the validator cache below.
const AJV_OPTIONS: Record<Mode, Options> = {
  all: { strict: true, strictRequired: false, allErrors: true, code: { source: true } },
  first: { strict: true, strictRequired: false, allErrors: false, code: { source: true } },
};

const instances = new Map<Mode, Ajv2020>();

function ajvFor(mode: Mode): Ajv2020 {
  const existing = instances.get(mode);
  if (existing) return existing;
  const ajv = new Ajv2020(AJV_OPTIONS[mode]);
  addFormats(ajv);
  for (const name of schemaNames()) {
    const schema = readSchema(name);
    if (schema.$id !== schemaId(name)) {
      throw new Error(`schemas/${name}${SUFFIX}: $id must be ${schemaId(name)}, found ${String(schema.$id)}`);
    }
    ajv.addSchema(schema);
  }
  instances.set(mode, ajv);
  return ajv;
}

/** The shared ajv instance that reports every error. */
export function getAjv(): Ajv2020 {
  return ajvFor('all');
}

const compiled: Record<Mode, Map<string, ValidateFunction>> = { all: new Map(), first: new Map() };

// Compiling the larger schemas takes seconds, and every conformance test process compiles the same ones, so each
// compiled validator is kept as ajv standalone code under node_modules/.cache. The directory is named by a hash of
// every schema file, the ajv options and the ajv and ajv-formats versions: a changed schema never meets old code.
const moduleRequire = createRequire(import.meta.url);
const CACHE_ROOT = join(schemaDir, '..', 'node_modules', '.cache', 'fauna-conformance', 'validators');
let cacheDir: string | undefined;

function validatorCacheDir(): string {
  if (cacheDir) return cacheDir;
  const hash = createHash('sha256');
  for (const pkg of ['ajv', 'ajv-formats']) {
    hash.update(`${pkg}@${(moduleRequire(`${pkg}/package.json`) as { version: string }).version}\n`);
  }
  hash.update(`${JSON.stringify(AJV_OPTIONS)}\n`);
  for (const name of schemaNames()) hash.update(`${name}\n${readFileSync(`${schemaDir}/${name}${SUFFIX}`, 'utf8')}\n`);
  const dirName = hash.digest('hex').slice(0, 24);
  cacheDir = join(CACHE_ROOT, dirName);
  // Validators of earlier schema versions are never read again.
  if (!existsSync(cacheDir) && existsSync(CACHE_ROOT)) {
    for (const old of readdirSync(CACHE_ROOT)) if (old !== dirName) rmSync(join(CACHE_ROOT, old), { recursive: true, force: true });
  }
  return cacheDir;
}

/** The cached standalone validator, or undefined when there is none yet (or it cannot be read). */
function loadCachedValidator(file: string): ValidateFunction | undefined {
  try {
    const module = { exports: {} as unknown };
    new Function('require', 'module', 'exports', readFileSync(file, 'utf8'))(moduleRequire, module, module.exports);
    return typeof module.exports === 'function' ? (module.exports as ValidateFunction) : undefined;
  } catch {
    return undefined;
  }
}

/** Best effort: a read-only install just compiles in every process. Written under a unique name, then renamed, so a concurrent reader never sees half a file. */
function storeValidator(file: string, ajv: Ajv2020, fn: ValidateFunction): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(partial, standaloneCode(ajv, fn));
    renameSync(partial, file);
  } catch {
    // Not cached; the compiled function is used all the same.
  }
}

function cacheFile(name: string, mode: Mode): string {
  return join(validatorCacheDir(), `${name}.${mode === 'all' ? 'all-errors' : 'first-error'}.cjs`);
}

function validatorFor(name: string, mode: Mode): ValidateFunction {
  const cached = compiled[mode].get(name);
  if (cached) return cached;
  if (!schemaNames().includes(name)) throw new Error(`Unknown schema '${name}'. Known schemas: ${schemaNames().join(', ')}`);
  const file = cacheFile(name, mode);
  let fn = loadCachedValidator(file);
  if (!fn) {
    const ajv = ajvFor(mode);
    fn = ajv.getSchema(schemaId(name));
    if (!fn) throw new Error(`Unknown schema '${name}'. Known schemas: ${schemaNames().join(', ')}`);
    storeValidator(file, ajv, fn);
  }
  compiled[mode].set(name, fn);
  return fn;
}

/** The validator of schema `name`; its `errors` list every error of the last invalid value. */
export function getValidator(name: string): ValidateFunction {
  return validatorFor(name, 'all');
}

/**
 * Fills the cache with what validate() needs for valid values of every schema, compiling only what is missing:
 * called once before parallel processes start, so they do not each compile the same schemas at once.
 */
export function prepareValidators(): void {
  for (const name of schemaNames()) if (!existsSync(cacheFile(name, 'first'))) validatorFor(name, 'first');
}

function describeError(error: ErrorObject): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  return `${path} ${error.message ?? 'is invalid'}`;
}

export function validate(name: string, value: unknown): { valid: boolean; errors: string[] } {
  if (validatorFor(name, 'first')(value) === true) return { valid: true, errors: [] };
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
