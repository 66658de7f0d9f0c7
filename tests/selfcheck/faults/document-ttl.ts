// The faults of spec/requirements/document-ttl.md are all rows (document-ttl.json): failpoints of the reference server.
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {};
