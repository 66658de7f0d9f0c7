// The faults of spec/requirements/functions-time.md are rows of functions-time.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
