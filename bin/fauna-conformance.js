#!/usr/bin/env node
// Launcher: registers tsx so the TypeScript entry runs from any working directory, then exits with its code.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../tests/runner/cli.ts');
process.exit(await main(process.argv.slice(2)));
