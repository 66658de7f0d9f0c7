// The faults of spec/requirements/functions-math.md are rows of functions-math.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
