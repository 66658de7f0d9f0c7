// The faults of spec/requirements/functions-collections.md are rows of functions-collections.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
