// Lossless JSON for rewriting wire bodies: integers and decimals keep their exact textual form
// (`1` stays an integer, `1.0` stays a decimal), so a fault changes only what it means to change.
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json';

export type JsonObject = { [key: string]: unknown };

export function parseJson(text: string | Buffer): unknown {
  return parse(typeof text === 'string' ? text : text.toString('utf8'));
}

export function tryParseJson(text: string | Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseJson(text) };
  } catch {
    return { ok: false };
  }
}

export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new Error('value has no JSON form');
  return text;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** A JSON integer literal with the given value. */
export function jsonInt(value: number | bigint): LosslessNumber {
  return new LosslessNumber(BigInt(value).toString());
}

/** A JSON decimal literal (always written with a fraction part). */
export function jsonDecimal(value: number): LosslessNumber {
  const text = String(value);
  return new LosslessNumber(/[.eE]/.test(text) ? text : `${text}.0`);
}

/** The numeric value of a parsed JSON number, or undefined for anything else. */
export function jsonNumber(value: unknown): number | undefined {
  if (isLosslessNumber(value)) return Number(value.toString());
  return typeof value === 'number' ? value : undefined;
}

export function isJsonInteger(value: unknown): boolean {
  return isLosslessNumber(value) && /^-?\d+$/.test(value.toString());
}

/** Visits every object in a JSON tree (depth first, parents before children). */
export function forEachObject(value: unknown, visit: (object: JsonObject) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) forEachObject(item, visit);
  } else if (isJsonObject(value)) {
    visit(value);
    for (const child of Object.values(value)) forEachObject(child, visit);
  }
}

/** Every string anywhere in a JSON tree, keys excluded. */
export function collectStrings(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (isJsonObject(value)) for (const child of Object.values(value)) collectStrings(child, into);
  return into;
}
