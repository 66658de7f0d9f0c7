// The faults of spec/requirements/functions-numbers.md are rows of functions-numbers.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
