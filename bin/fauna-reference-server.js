#!/usr/bin/env node
// Launcher: bundles the TypeScript server with esbuild (tsx's compiler) into plain JavaScript and runs that, so no
// loader thread stays alive beside the server (tsx's module hooks run on their own thread in Node 20: ~34 MB RSS).
// The bundle is rebuilt on every start (~0.1 s), so it is never stale; where the package directory cannot be
// written, the server runs through tsx instead.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

// Collect old-generation garbage once the heap has grown 50% past what the last full collection kept, instead
// of V8's adaptive factor (up to 4x): the server's bulk writes promote each request's short-lived objects, and
// RSS after loading 100k documents fell ~205 -> ~190 MB. It sets no limit, so any data size still fits; the
// cost is more frequent full collections, within noise for get/create CPU. Read by V8 at each collection, so
// setting it here, before the server allocates anything, applies to the whole run.
setFlagsFromString('--heap-growing-percent=50');

const entry = fileURLToPath(new URL('../reference-impl/main.ts', import.meta.url));
// Inside the package's node_modules, so the bundle's own imports of dependencies resolve as the sources' do.
const cacheDir = fileURLToPath(new URL('../node_modules/.cache/fauna-conformance/', import.meta.url));

async function bundle() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  mkdirSync(cacheDir, { recursive: true });
  const code = result.outputFiles[0].contents;
  // Named by content: servers starting together share one file, and a rename never exposes half a file.
  const file = `${cacheDir}reference-server-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  if (!existsSync(file)) {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
    // Bundles of earlier sources are never read again (a running server already holds its own in memory).
    for (const name of readdirSync(cacheDir)) {
      if (/^reference-server-[0-9a-f]{16}\.mjs$/.test(name) && `${cacheDir}${name}` !== file) rmSync(`${cacheDir}${name}`, { force: true });
    }
  }
  return file;
}

let bundled;
try {
  bundled = await bundle();
} catch {
  bundled = undefined;
}
if (bundled) {
  await import(new URL(`file://${bundled}`).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../reference-impl/main.ts', import.meta.url).href);
}
