/**
 * Where a generated root secret goes when the operator gave none: into a file only the current user can
 * read — `<data dir>/root-secret` (reused on restart, so a durable server keeps its root secret) or a fresh
 * temporary directory. The server log names the file, never the secret.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT_SECRET_FILE = 'root-secret';

export interface GeneratedRootSecret {
  readonly secret: string;
  readonly file: string;
}

export async function generatedRootSecret(dataDir: string | undefined): Promise<GeneratedRootSecret> {
  const directory = dataDir ?? (await mkdtemp(join(tmpdir(), 'fauna-reference-server-')));
  const file = join(directory, ROOT_SECRET_FILE);
  const existing = dataDir === undefined ? undefined : await readFile(file, 'utf8').catch(() => undefined);
  if (existing !== undefined && existing.trim() !== '') return { secret: existing.trim(), file };
  const secret = `root-${randomBytes(16).toString('hex')}`;
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return { secret, file };
}
