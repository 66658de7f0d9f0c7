#!/usr/bin/env node
// Launcher: registers tsx so the TypeScript entry point runs from any working directory.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../reference-impl/main.ts', import.meta.url).href);
