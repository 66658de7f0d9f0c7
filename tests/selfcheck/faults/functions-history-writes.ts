// The faults of spec/requirements/functions-history-writes.md are rows of functions-history-writes.json (edits and failpoints); none is code.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
