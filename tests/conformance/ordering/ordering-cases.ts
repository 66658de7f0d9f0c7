// The ordering cases (ordering-cases.json, pure data) as the conformance test and the wire-order model's unit test
// read them.
import { readFileSync } from 'node:fs';
import type { WireValue } from '../../harness/model/wire-order.js';
import { parseWireJson } from '../../harness/wire-json.js';

export interface OrderingCase {
  description: string;
  /** The order under the real service's type order. */
  values: WireValue[];
  /** The order under the SD's type order, where it differs. */
  sd?: WireValue[];
  requirements: string[];
  reverse?: boolean;
  /** The last value stands for a field that is absent. */
  missing?: boolean;
  /** The case holds arrays or objects, covered whole. */
  whole?: boolean;
  /** The spec decision the case relies on beyond the SD text. */
  decision?: string;
  source?: string;
}

export const ORDERING_CASES: readonly OrderingCase[] = (
  parseWireJson(readFileSync(new URL('./ordering-cases.json', import.meta.url), 'utf8')) as { cases: OrderingCase[] }
).cases;
