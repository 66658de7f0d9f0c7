/**
 * A stored lambda (`@query`) as the real service renders it: its body is echoed as it parsed it, not as it was sent.
 */
import { setField, type QueryValue } from '../values/value.js';
import { LAMBDA_DEFAULT_API_VERSION, laterThanLambdaDefault, type ApiVersion } from './api-version.js';
import { renderDecimal } from './v4-numbers.js';
import { isRawObject } from './v4-tagged-values.js';

/**
 * A lambda's `{"@query": …}` text as the real service renders it (`LambdaL.renderableLiteral`, DEC-136): its version
 * only when it or the request's is past 2.12, and its body as parsed (`let` bindings as one object).
 */
export function storedLambdaText(value: QueryValue, requestVersion: ApiVersion): string {
  const version = value.apiVersion ?? LAMBDA_DEFAULT_API_VERSION;
  const apiVersion =
    laterThanLambdaDefault(version) || laterThanLambdaDefault(requestVersion) ? `"api_version":${JSON.stringify(version)},` : '';
  return `{"@query":{${apiVersion}"lambda":${JSON.stringify(value.lambda)},"expr":${rawJsonText(parsedForm(value.expr))}}}`;
}

/**
 * A lambda's body (its wire tree) as the real service renders the expression it parsed (`LetE.literal`): a `let`
 * given as a list of one-binding objects comes back as one object of its bindings, in order. The tree is walked as an
 * expression: `object` literals and `let` bindings hold expressions under names, which are not forms; tagged values
 * (`@ref`, `@query`, …) are left as they are. A tree with nothing to change is returned itself.
 */
function parsedForm(raw: unknown): unknown {
  if (Array.isArray(raw)) {
    let out: unknown[] | undefined;
    raw.forEach((item, i) => {
      const changed = parsedForm(item);
      if (changed !== item) {
        out ??= [...raw];
        out[i] = changed;
      }
    });
    return out ?? raw;
  }
  if (raw === null || typeof raw !== 'object') return raw;
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  if (keys.length === 1 && keys[0]!.startsWith('@')) return raw;
  let out: Record<string, unknown> | undefined;
  for (const key of keys) {
    const value = object[key];
    const changed =
      (key === 'object' && keys.length === 1) || (key === 'let' && 'in' in object) ? parsedBindings(value) : parsedForm(value);
    if (changed !== value) {
      out ??= { ...object };
      setField(out, key, changed);
    }
  }
  return out ?? raw;
}

/** Named expressions (an `object` literal's fields, a `let`'s bindings as an object or a list of one-binding objects). */
function parsedBindings(raw: unknown): unknown {
  if (Array.isArray(raw) && raw.every((binding) => isRawObject(binding) && Object.keys(binding).length === 1)) {
    const names = raw.map((binding) => Object.keys(binding as object)[0]!);
    // The same name bound twice cannot be one object: left as a list.
    if (new Set(names).size === names.length) {
      const merged: Record<string, unknown> = {};
      raw.forEach((binding, i) => {
        setField(merged, names[i]!, parsedForm((binding as Record<string, unknown>)[names[i]!]));
      });
      return merged;
    }
  }
  if (!isRawObject(raw)) return parsedForm(raw);
  let out: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(raw)) {
    const changed = parsedForm(value);
    if (changed !== value) {
      out ??= { ...raw };
      setField(out, name, changed);
    }
  }
  return out ?? raw;
}

/** Raw expression JSON (as parsed) back to text, keeping integers and decimals apart. */
function rawJsonText(raw: unknown): string {
  if (raw === null || raw === undefined) return 'null';
  if (typeof raw === 'bigint') return raw.toString();
  if (typeof raw === 'number') return renderDecimal(raw);
  if (typeof raw === 'string' || typeof raw === 'boolean') return JSON.stringify(raw);
  if (Array.isArray(raw)) {
    let out = '[';
    for (let i = 0; i < raw.length; i++) out += (i > 0 ? ',' : '') + rawJsonText(raw[i]);
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const [key, field] of Object.entries(raw as Record<string, unknown>)) {
    out += `${(first ? '' : ',') + JSON.stringify(key)}:${rawJsonText(field)}`;
    first = false;
  }
  return `${out}}`;
}
