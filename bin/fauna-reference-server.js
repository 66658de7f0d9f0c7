#!/usr/bin/env node
// Launcher: registers tsx so the TypeScript entry point runs from any working directory.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// Collect old-generation garbage once the heap has grown 50% past what the last full collection kept, instead
// of V8's adaptive factor (up to 4x): the server's bulk writes promote each request's short-lived objects, and
// RSS after loading 100k documents fell ~205 -> ~190 MB. It sets no limit, so any data size still fits; the
// cost is more frequent full collections, within noise for get/create CPU. Read by V8 at each collection, so
// setting it here, before the server allocates anything, applies to the whole run.
setFlagsFromString('--heap-growing-percent=50');
register();
await import(new URL('../reference-impl/main.ts', import.meta.url).href);
