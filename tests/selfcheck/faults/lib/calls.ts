// What the faults of the v4 functions look at: the top-level call of a query.
import type { ProxiedRequest } from '../../fault.js';
import { isJsonObject, type JsonObject } from '../../json-body.js';
import { v4Expression } from './rewrites.js';

/** The query's top-level expression when it is a call of `forms` (the first of them it has as a key), with that form. */
export function topLevelCall(request: ProxiedRequest, forms: string | readonly string[]): { form: string; call: JsonObject } | undefined {
  const expression = v4Expression(request);
  if (!isJsonObject(expression)) return undefined;
  const form = (typeof forms === 'string' ? [forms] : forms).find((name) => name in expression);
  return form === undefined ? undefined : { form, call: expression };
}
