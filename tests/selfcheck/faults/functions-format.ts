// The faults of spec/requirements/functions-format.md are rows of functions-format.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
