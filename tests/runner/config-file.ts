// fauna-conformance.config.json: target (and its settings), the NAME of the env var holding the secret, claimed
// profiles, expectations file, baseline, areas, timeouts, concurrency, seed, report dir. Validated by schemas/config.schema.json; relative paths in it are resolved
// against the file's folder.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FaunaConformanceConfig } from '../../schemas/types.js';
import { readSchemaFile } from './json-file.js';

export const CONFIG_FILE_NAME = 'fauna-conformance.config.json';
export const CONFIG_SCHEMA = 'config';

export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

export interface LoadedConfig {
  path: string;
  config: FaunaConformanceConfig;
  /** Absolute paths, resolved against the config file's folder. */
  expectations?: string;
  reportDir?: string;
  baseline?: string;
}

/** Reads the given file, or `fauna-conformance.config.json` in `cwd` when present; undefined when there is none. */
export function loadConfig(explicitPath: string | undefined, cwd: string = process.cwd()): LoadedConfig | undefined {
  const path = explicitPath ? resolve(cwd, explicitPath) : resolve(cwd, CONFIG_FILE_NAME);
  if (!explicitPath && !existsSync(path)) return undefined;
  const config = readSchemaFile(path, CONFIG_SCHEMA, {
    unreadable: (message) => new ConfigFileError(`cannot read the config file ${path}: ${message}`),
    invalid: (errors) => new ConfigFileError(`config file ${path} is invalid: ${errors.join('; ')}`),
  }) as FaunaConformanceConfig;
  const base = dirname(path);
  return {
    path,
    config,
    ...(config.expectations === undefined ? {} : { expectations: resolve(base, config.expectations) }),
    ...(config.reportDir === undefined ? {} : { reportDir: resolve(base, config.reportDir) }),
    ...(config.baseline === undefined ? {} : { baseline: resolve(base, config.baseline) }),
  };
}
