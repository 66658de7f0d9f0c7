// The catalogue as data: each spec area's faults are rows of `faults/<area>.json` (lib/faults.schema.json). A row
// names its hooks: failpoints of the reference server, or code, which the area's module gives under the row's id.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Area, Fault } from '../../fault.js';

export type FaultCode = Readonly<Record<string, Fault['apply']>>;

interface FaultRow {
  id: string;
  title: string;
  breaks: string[];
  area: Area;
  description: string;
  failpoints?: string[];
  code?: true;
}

export interface AreaFaults {
  /** The spec file whose requirements the area's faults break first, e.g. `spec/requirements/protocol.md`. */
  spec: string;
  faults: Fault[];
}

const validate = new Ajv2020({ allErrors: true }).compile<{ spec: string; faults: FaultRow[] }>(
  JSON.parse(readFileSync(new URL('./faults.schema.json', import.meta.url), 'utf8')),
);

/** The faults of `faults/<area>.json`, their code from `code`; throws on a row without hooks or code without a row. */
export function loadArea(area: string, code: FaultCode = {}): AreaFaults {
  const file = new URL(`../${area}.json`, import.meta.url);
  const table: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!validate(table)) throw new Error(`${file.pathname}: ${JSON.stringify(validate.errors)}`);
  const unused = new Set(Object.keys(code));
  const faults = table.faults.map(({ failpoints, code: isCode, ...fault }): Fault => {
    unused.delete(fault.id);
    if (failpoints !== undefined) return { ...fault, apply: () => ({ failpoints }) };
    const apply = code[fault.id];
    if (apply === undefined || isCode !== true) throw new Error(`${file.pathname}: ${fault.id} has no code`);
    return { ...fault, apply };
  });
  if (unused.size > 0) throw new Error(`${file.pathname}: code for faults it has no row for: ${[...unused].join(', ')}`);
  return { spec: table.spec, faults };
}
