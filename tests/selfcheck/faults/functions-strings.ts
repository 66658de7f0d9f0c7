// The faults of spec/requirements/functions-strings.md that are code; their rows (ids, titles, what they break) are in functions-strings.json.
import type { FaultHooks } from '../fault.js';
import { isJsonObject, jsonDecimal, jsonInt, type JsonObject } from '../json-body.js';
import {
  editErrors,
  expressionUses,
  onJson,
  onObjects,
  onResponse,
  replaceObject,
  rewriteJson,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import { topLevelCall } from './lib/calls.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

type JsonHook = NonNullable<FaultHooks['json']>;

/**
 * A JSON hook that answers a successful top-level call of `form` with `answer(call)` instead of the server's result;
 * `answer` returns undefined to leave the result alone (arguments that are not plain literals, for instance).
 */
function answerTopLevel(form: string, answer: (call: JsonObject) => unknown): JsonHook {
  return (body, context) => {
    const call = topLevelCall(context.original, form)?.call;
    if (context.status !== 200 || call === undefined || !isJsonObject(body) || !('resource' in body)) return undefined;
    const replacement = answer(call);
    if (replacement === undefined) return undefined;
    body.resource = replacement;
    return body;
  };
}

/** An integer literal of the expression as a number, or undefined. */
function integerLiteral(value: unknown): number | undefined {
  return isLosslessNumber(value) && /^-?\d+$/.test(value.toString()) ? Number(value.toString()) : undefined;
}

/** A decimal literal of the expression as a number, or undefined. */
function decimalLiteral(value: unknown): number | undefined {
  return isLosslessNumber(value) && /[.eE]/.test(value.toString()) ? Number(value.toString()) : undefined;
}

/** A JSON hook trying each of `hooks` in turn: the first that rewrites the body wins. */
function firstOf(...hooks: Array<JsonHook>): FaultHooks['json'] {
  return (body, context) => {
    for (const hook of hooks) {
      const rewritten = hook(body, context);
      if (rewritten !== undefined) return rewritten;
    }
    return undefined;
  };
}

const stringOrUndefined = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Rewrites the position of every `invalid argument` error of a request that uses `form`, when `rewrite` changes it. */
function repositionErrors(form: string, rewrite: (position: unknown[], description: string) => unknown[] | undefined): FaultHooks['json'] {
  return rewriteJson(
    (_body, context) => context.status === 400 && expressionUses(context.original, form),
    (body) =>
      editErrors(body, (error) => {
        if (error.code !== 'invalid argument' || !Array.isArray(error.position) || typeof error.description !== 'string') return false;
        const position = rewrite(error.position, error.description);
        if (position === undefined) return false;
        error.position = position;
        return true;
      }),
  );
}

/** JavaScript-style escaping of a string for a pattern: a backslash before each metacharacter instead of `\Q…\E`. */
function backslashEscaped(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}

/** NGram's grams ordered by size first (all of `min`, then all of `max`), not by starting position. */
function gramsBySize(term: string, min: number, max: number): string[] {
  const codePoints = Array.from(term);
  const grams: string[] = [];
  for (let size = min; size <= max; size++) {
    for (let from = 0; from + size <= codePoints.length; from++) grams.push(codePoints.slice(from, from + size).join(''));
  }
  return grams;
}

export const code: FaultCode = {
  'STR-CONCAT-ELEMENT-ERROR-AT-ARGUMENT': () => ({
    json: repositionErrors('concat', (position) => {
      const at = position.lastIndexOf('concat');
      return at >= 0 && at === position.length - 2 ? position.slice(0, -1) : undefined;
    }),
  }),
  'STR-CASEFOLD-AS-LOWERCASE': onObjects((object) => {
    if (Object.keys(object).length !== 1 || typeof object.casefold !== 'string') return false;
    replaceObject(object, { lowercase: object.casefold });
    return true;
  }),
  'STR-CASEFOLD-SINGLE-ELEMENT-ARRAY': () => ({
    json: answerTopLevel('casefold', (call) =>
      Array.isArray(call.casefold) && call.casefold.length === 1 && typeof call.casefold[0] === 'string'
        ? [call.casefold[0].toLowerCase()]
        : undefined,
    ),
  }),
  'STR-SEARCH-CASE-INSENSITIVE': onObjects((object) => {
    if (!('search' in object) || !['startswith', 'endswith', 'containsstr'].some((form) => typeof object[form] === 'string')) return false;
    for (const key of Object.keys(object)) if (typeof object[key] === 'string') object[key] = (object[key] as string).toLowerCase();
    return true;
  }),
  'STR-FINDSTR-UTF16-OFFSETS': () => ({
    json: answerTopLevel('findstr', (call) => {
      const value = stringOrUndefined(call.findstr);
      const find = stringOrUndefined(call.find);
      if (value === undefined || find === undefined) return undefined;
      return jsonInt(value.indexOf(find, integerLiteral(call.start) ?? 0));
    }),
  }),
  'STR-LENGTH-UTF16': () => ({
    json: answerTopLevel('length', (call) => (typeof call.length === 'string' ? jsonInt(call.length.length) : undefined)),
  }),
  'STR-UPPERCASE-SIMPLE-MAPPING': () => ({
    json: answerTopLevel('uppercase', (call) =>
      typeof call.uppercase === 'string'
        ? [...call.uppercase].map((c) => (c.toUpperCase().length === c.length ? c.toUpperCase() : c)).join('')
        : undefined,
    ),
  }),
  'STR-TITLECASE-FIRST-LETTER-ONLY': () => ({
    json: answerTopLevel('titlecase', (call) =>
      typeof call.titlecase === 'string' ? call.titlecase.charAt(0).toUpperCase() + call.titlecase.slice(1).toLowerCase() : undefined,
    ),
  }),
  'STR-TRIM-JAVASCRIPT-WHITESPACE': () => ({
    json: firstOf(
      answerTopLevel('trim', (call) => stringOrUndefined(call.trim)?.trim()),
      answerTopLevel('ltrim', (call) => stringOrUndefined(call.ltrim)?.trimStart()),
      answerTopLevel('rtrim', (call) => stringOrUndefined(call.rtrim)?.trimEnd()),
    ),
  }),
  'STR-REPEAT-UNCAPPED': () => ({
    json: firstOf(
      answerTopLevel('repeat', (call) => {
        const times = integerLiteral(call.number);
        return typeof call.repeat === 'string' && times !== undefined && times > 1024 && times <= 100_000
          ? call.repeat.repeat(times)
          : undefined;
      }),
      answerTopLevel('space', (call) => {
        const count = integerLiteral(call.space);
        return count !== undefined && count > 1024 && count <= 1_000_000 ? ' '.repeat(count) : undefined;
      }),
    ),
  }),
  'STR-REPLACESTR-FIRST-ONLY': () => ({
    json: answerTopLevel('replacestr', (call) => {
      const [value, find, replacement] = [call.replacestr, call.find, call.replace].map(stringOrUndefined);
      return value === undefined || find === undefined || replacement === undefined ? undefined : value.replace(find, () => replacement);
    }),
  }),
  'STR-SUBSTRING-UTF16-OFFSETS': () => ({
    json: answerTopLevel('substring', (call) => {
      const value = stringOrUndefined(call.substring);
      if (value === undefined || !/[\uD800-\uDFFF]/.test(value)) return undefined;
      const start = integerLiteral(call.start) ?? 0;
      const from = start < 0 ? value.length + start : start;
      const length = integerLiteral(call.length);
      return value.slice(from, length === undefined ? undefined : from + length);
    }),
  }),
  'STR-SUBSTRING-BOUNDS-AT-ARGUMENT': () => ({
    json: repositionErrors('substring', (position, description) => {
      if (description.startsWith('start must be')) return [...position, 'start'];
      if (description.startsWith('length must be')) return [...position, 'length'];
      return undefined;
    }),
  }),
  'STR-WRONG-TYPE-INVALID-EXPRESSION': onJson(
    (_body, context) =>
      context.status === 400 &&
      [
        'lowercase',
        'uppercase',
        'titlecase',
        'length',
        'trim',
        'ltrim',
        'rtrim',
        'search',
        'findstr',
        'repeat',
        'space',
        'replacestr',
        'substring',
      ].some((form) => expressionUses(context.original, form)),
    (body) => {
      let changed = 0;
      for (const error of v4Errors(body)) {
        if (
          error.code === 'invalid argument' &&
          typeof error.description === 'string' &&
          / expected, .* provided\.$/.test(error.description)
        ) {
          error.code = 'invalid expression';
          changed++;
        }
      }
      return changed;
    },
  ),
  'CONV-TOSTRING-PYTHON-STYLE': () => ({
    json: answerTopLevel('to_string', (call) => {
      const names = new Map<unknown, string>([
        [true, 'True'],
        [false, 'False'],
        [null, 'None'],
      ]);
      return names.get(call.to_string);
    }),
  }),
  'CONV-TOSTRING-JAVASCRIPT-DOUBLES': onJson(
    (body, context) =>
      context.status === 200 && isJsonObject(body) && typeof body.resource === 'string' && expressionUses(context.original, 'to_string'),
    (body) => {
      const text = (body as JsonObject).resource as string;
      if (!/^-?\d+\.\d+(E-?\d+)?$/.test(text)) return false;
      const javascript = String(Number(text));
      if (javascript === text) return false;
      (body as JsonObject).resource = javascript;
      return true;
    },
  ),
  'CONV-CAST-ERROR-POSITIONS-SWAPPED': onJson(
    (_body, context) =>
      context.status === 400 &&
      ['to_string', 'to_number', 'to_double', 'to_integer'].some((form) => expressionUses(context.original, form)),
    (body) =>
      editErrors(body, (error) => {
        const description = typeof error.description === 'string' ? error.description : '';
        if (!description.startsWith('Cannot cast ') || !Array.isArray(error.position)) return false;
        const last = error.position[error.position.length - 1];
        if (last === 'to_double' || last === 'to_integer') error.position = error.position.slice(0, -1);
        else if (description.endsWith(' to String.')) error.position = [...error.position, 'to_string'];
        else if (description.endsWith(' to Number.')) error.position = [...error.position, 'to_number'];
        else return false;
        return true;
      }),
  ),
  'CONV-TONUMBER-JAVASCRIPT-NUMBER': () => ({
    response: (response, context) => {
      const expression = v4Expression(context.original);
      if (!isJsonObject(expression) || typeof expression.to_number !== 'string') return undefined;
      const text = expression.to_number.trim();
      const value = text === '' ? NaN : Number(text);
      if (Number.isNaN(value)) {
        if (response.status === 400) return undefined;
        return withJsonBody(withStatus(response, 400), {
          errors: [{ position: [], code: 'invalid argument', description: 'Cannot cast String to Number.' }],
        });
      }
      return withJsonBody(withStatus(response, 200), {
        resource: /[.eE]/.test(text) || !Number.isSafeInteger(value) ? jsonDecimal(value) : jsonInt(value),
      });
    },
  }),
  'CONV-TOINTEGER-ROUNDS': () => ({
    json: answerTopLevel('to_integer', (call) => {
      const value = decimalLiteral(call.to_integer);
      return value === undefined || Number.isInteger(value) ? undefined : jsonInt(Math.round(value));
    }),
  }),
  'STR-REGEX-EMBEDDED-FLAGS-IGNORED': onObjects((object) => {
    if (typeof object.pattern !== 'string' || !/^\(\?[ims]+\)/.test(object.pattern)) return false;
    object.pattern = object.pattern.replace(/^\(\?[ims]+\)/, '');
    return true;
  }),
  'STR-REGEX-INVALID-PATTERN-AT-CALL': onJson(
    (_body, context) => context.status === 400 && expressionUses(context.original, 'pattern'),
    (body) =>
      editErrors(body, (error) => {
        if (
          !Array.isArray(error.position) ||
          error.position.at(-1) !== 'pattern' ||
          !String(error.description).startsWith('Search pattern')
        )
          return false;
        error.position = error.position.slice(0, -1);
        return true;
      }),
  ),
  'STR-FINDSTRREGEX-END-EXCLUSIVE': () => ({
    json: (body, context) => {
      if (
        context.status !== 200 ||
        topLevelCall(context.original, 'findstrregex')?.call === undefined ||
        !isJsonObject(body) ||
        !Array.isArray(body.resource)
      )
        return undefined;
      let changed = 0;
      for (const match of body.resource) {
        if (!isJsonObject(match) || typeof match.data !== 'string' || match.data === '') continue;
        match.end = jsonInt(Number(String(match.end)) + 1);
        changed++;
      }
      return changed > 0 ? body : undefined;
    },
  }),
  'STR-FINDSTRREGEX-END-AT-LAST-CODE-POINT': () => ({
    json: (body, context) => {
      if (
        context.status !== 200 ||
        topLevelCall(context.original, 'findstrregex')?.call === undefined ||
        !isJsonObject(body) ||
        !Array.isArray(body.resource)
      )
        return undefined;
      let changed = 0;
      for (const match of body.resource) {
        if (!isJsonObject(match) || typeof match.data !== 'string' || (match.data.codePointAt(match.data.length - 2) ?? 0) <= 0xffff)
          continue;
        match.end = jsonInt(Number(String(match.end)) - 1);
        changed++;
      }
      return changed > 0 ? body : undefined;
    },
  }),
  'STR-REGEXESCAPE-BACKSLASHES': () => ({
    json: answerTopLevel('regexescape', (call) => (typeof call.regexescape === 'string' ? backslashEscaped(call.regexescape) : undefined)),
  }),
  'STR-NGRAM-BY-SIZE': () => ({
    json: answerTopLevel('ngram', (call) => {
      if (typeof call.ngram !== 'string') return undefined;
      const min = 'min' in call ? integerLiteral(call.min) : 1;
      const max = 'max' in call ? integerLiteral(call.max) : 2;
      return min === undefined || max === undefined ? undefined : gramsBySize(call.ngram, min, max);
    }),
  }),
  'STR-NGRAM-ONLY-MAX-ONE-ACCEPTED': onResponse(
    (res, ctx) => {
      const call = v4Expression(ctx.original);
      return (
        res.status === 400 && isJsonObject(call) && typeof call.ngram === 'string' && !('min' in call) && integerLiteral(call.max) === 1
      );
    },
    (res, ctx) =>
      withStatus(withJsonBody(res, { resource: gramsBySize((v4Expression(ctx.original) as JsonObject).ngram as string, 1, 1) }), 200),
  ),
  'STR-NGRAM-SIZE-ERROR-AT-ARGUMENT': () => ({
    json: repositionErrors('ngram', (position, description) => {
      const size = /^(min|max) ngram size/.exec(description)?.[1];
      return size === undefined ? undefined : [...position, size];
    }),
  }),
  'STR-CONTAINSSTRREGEX-WHOLE-STRING': onObjects((object) => {
    if (!('containsstrregex' in object) || typeof object.pattern !== 'string') return false;
    object.pattern = `\\A(?:${object.pattern})\\z`;
    return true;
  }),
  'STR-REPLACESTRREGEX-TRUTHY-FIRST': onObjects((object) => {
    if (!('replacestrregex' in object) || !('first' in object) || typeof object.first === 'boolean' || isJsonObject(object.first))
      return false;
    object.first = true;
    return true;
  }),
};
