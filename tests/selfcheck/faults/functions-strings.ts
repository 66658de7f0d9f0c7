// The faults of spec/requirements/functions-strings.md are rows of functions-strings.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
