// Faults against the string and conversion functions (FN-STR, FN-CONV; spec/requirements/functions-strings.md): each
// is a server that gets one rule of the family wrong the way a hand-written implementation plausibly would, by
// rewriting the expression it is sent or the answer to a call made at the top level of a query.
import { isLosslessNumber } from 'lossless-json';
import type { Fault, FaultHooks, JsonResponseContext } from '../fault.js';
import { forEachObject, isJsonObject, jsonDecimal, jsonInt, type JsonObject } from '../json-body.js';
import { expressionUses, replaceObject, rewriteExpression, rewriteJson, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus } from './lib/rewrites.js';

type JsonHook = NonNullable<FaultHooks['json']>;

/** The top-level expression when it is a call of `form`, e.g. `{"length": "abc"}` for `length`. */
function topLevelCall(context: JsonResponseContext, form: string): JsonObject | undefined {
  const expression = v4Expression(context.original);
  return isJsonObject(expression) && form in expression ? expression : undefined;
}

/**
 * A JSON hook that answers a successful top-level call of `form` with `answer(call)` instead of the server's result;
 * `answer` returns undefined to leave the result alone (arguments that are not plain literals, for instance).
 */
function answerTopLevel(form: string, answer: (call: JsonObject) => unknown): JsonHook {
  return (body, context) => {
    const call = topLevelCall(context, form);
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
    (body, context) => context.status === 400 && expressionUses(context.original, form),
    (body) => {
      let changed = 0;
      for (const error of v4Errors(body)) {
        if (error.code !== 'invalid argument' || !Array.isArray(error.position) || typeof error.description !== 'string') continue;
        const position = rewrite(error.position, error.description);
        if (position === undefined) continue;
        error.position = position;
        changed++;
      }
      return changed;
    },
  );
}

/** A request hook deleting the optional argument `key` from every call of `form` in the expression. */
function dropArgument(form: string, key: string): FaultHooks['request'] {
  return rewriteExpression((expression) => {
    let changed = 0;
    forEachObject(expression, (object) => {
      if (form in object && key in object) {
        delete object[key];
        changed++;
      }
    });
    return changed;
  });
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

export const STRING_FUNCTION_FAULTS: readonly Fault[] = [
  {
    id: 'STR-CONCAT-SEPARATOR-IGNORED',
    title: 'Concat ignores its separator',
    breaks: ['FN-STR-001'],
    area: 'core',
    description: 'Concat joins its strings with nothing between them whatever `separator` says.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if ('concat' in object && 'separator' in object) {
            delete object.separator;
            changed++;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'STR-CONCAT-ELEMENT-ERROR-AT-ARGUMENT',
    title: 'A wrong Concat element is reported at the whole argument',
    breaks: ['FN-STR-002'],
    area: 'core',
    description: 'An element of Concat that is not a string is reported at `["concat"]` instead of `["concat", i]`.',
    apply: () => ({
      json: repositionErrors('concat', (position) => {
        const at = position.lastIndexOf('concat');
        return at >= 0 && at === position.length - 2 ? position.slice(0, -1) : undefined;
      }),
    }),
  },
  {
    id: 'STR-CASEFOLD-AS-LOWERCASE',
    title: 'Casefold only lower-cases',
    breaks: ['FN-STR-003'],
    area: 'core',
    description: 'Casefold of a string without a normalizer answers its lower case: no full folding (ß stays), no compatibility forms.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (Object.keys(object).length === 1 && typeof object.casefold === 'string') {
            replaceObject(object, { lowercase: object.casefold });
            changed++;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'STR-CASEFOLD-NORMALIZER-IGNORED',
    title: 'Casefold ignores its normalizer',
    breaks: ['FN-STR-004'],
    area: 'core',
    description: 'Casefold always applies NFKC_Casefold and accepts any `normalizer`.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if ('casefold' in object && 'normalizer' in object) {
            delete object.normalizer;
            changed++;
          }
        });
        return changed;
      }),
    }),
  },
  {
    id: 'STR-CASEFOLD-SINGLE-ELEMENT-ARRAY',
    title: 'Casefold of a one-element array answers an array',
    breaks: ['FN-STR-005'],
    area: 'core',
    description: 'Casefold of an array always answers an array, also for one element, which the service answers bare.',
    apply: () => ({
      json: answerTopLevel('casefold', (call) => (Array.isArray(call.casefold) && call.casefold.length === 1 && typeof call.casefold[0] === 'string' ? [call.casefold[0].toLowerCase()] : undefined)),
    }),
  },
  {
    id: 'STR-SEARCH-CASE-INSENSITIVE',
    title: 'StartsWith, EndsWith and ContainsStr ignore case',
    breaks: ['FN-STR-006'],
    area: 'core',
    description: 'The search functions compare lower-cased text, so `StartsWith("apple", "App")` is true.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('search' in object) || !['startswith', 'endswith', 'containsstr'].some((form) => typeof object[form] === 'string')) return;
          for (const key of Object.keys(object)) if (typeof object[key] === 'string') object[key] = (object[key] as string).toLowerCase();
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'STR-FINDSTR-UTF16-OFFSETS',
    title: 'FindStr counts UTF-16 units',
    breaks: ['FN-STR-007'],
    area: 'core',
    description: 'FindStr answers and takes offsets in UTF-16 code units, so a character outside the BMP counts twice.',
    apply: () => ({
      json: answerTopLevel('findstr', (call) => {
        const value = stringOrUndefined(call.findstr);
        const find = stringOrUndefined(call.find);
        if (value === undefined || find === undefined) return undefined;
        return jsonInt(value.indexOf(find, integerLiteral(call.start) ?? 0));
      }),
    }),
  },
  {
    id: 'STR-LENGTH-UTF16',
    title: 'Length counts UTF-16 units',
    breaks: ['FN-STR-009'],
    area: 'core',
    description: "Length answers JavaScript's `length` of the string, counting a surrogate pair as two.",
    apply: () => ({
      json: answerTopLevel('length', (call) => (typeof call.length === 'string' ? jsonInt(call.length.length) : undefined)),
    }),
  },
  {
    id: 'STR-UPPERCASE-SIMPLE-MAPPING',
    title: 'UpperCase maps one character to one',
    breaks: ['FN-STR-010'],
    area: 'core',
    description: 'UpperCase uses simple case mappings only, so ß stays ß instead of becoming SS.',
    apply: () => ({
      json: answerTopLevel('uppercase', (call) => (typeof call.uppercase === 'string' ? [...call.uppercase].map((c) => (c.toUpperCase().length === c.length ? c.toUpperCase() : c)).join('') : undefined)),
    }),
  },
  {
    id: 'STR-TITLECASE-FIRST-LETTER-ONLY',
    title: 'TitleCase capitalizes only the first letter of the string',
    breaks: ['FN-STR-011'],
    area: 'core',
    description: 'TitleCase upper-cases the first character of the whole string and lower-cases the rest.',
    apply: () => ({
      json: answerTopLevel('titlecase', (call) => (typeof call.titlecase === 'string' ? call.titlecase.charAt(0).toUpperCase() + call.titlecase.slice(1).toLowerCase() : undefined)),
    }),
  },
  {
    id: 'STR-TRIM-JAVASCRIPT-WHITESPACE',
    title: "Trim uses JavaScript's white space",
    breaks: ['FN-STR-012'],
    area: 'core',
    description: "Trim, LTrim and RTrim strip JavaScript's white space: no-break spaces go, information separators U+001C–U+001F stay.",
    apply: () => ({
      json: firstOf(
        answerTopLevel('trim', (call) => stringOrUndefined(call.trim)?.trim()),
        answerTopLevel('ltrim', (call) => stringOrUndefined(call.ltrim)?.trimStart()),
        answerTopLevel('rtrim', (call) => stringOrUndefined(call.rtrim)?.trimEnd()),
      ),
    }),
  },
  {
    id: 'STR-REPEAT-UNCAPPED',
    title: 'Repeat and Space are not capped at 1024',
    breaks: ['FN-STR-013', 'FN-STR-014'],
    area: 'core',
    description: 'Repeat and Space repeat as often as asked instead of at most 1024 times.',
    apply: () => ({
      json: firstOf(
        answerTopLevel('repeat', (call) => {
          const times = integerLiteral(call.number);
          return typeof call.repeat === 'string' && times !== undefined && times > 1024 && times <= 100_000 ? call.repeat.repeat(times) : undefined;
        }),
        answerTopLevel('space', (call) => {
          const count = integerLiteral(call.space);
          return count !== undefined && count > 1024 && count <= 1_000_000 ? ' '.repeat(count) : undefined;
        }),
      ),
    }),
  },
  {
    id: 'STR-REPLACESTR-FIRST-ONLY',
    title: 'ReplaceStr replaces only the first occurrence',
    breaks: ['FN-STR-015'],
    area: 'core',
    description: "ReplaceStr replaces the first occurrence only, as JavaScript's `String.replace` with a string does.",
    apply: () => ({
      json: answerTopLevel('replacestr', (call) => {
        const [value, find, replacement] = [call.replacestr, call.find, call.replace].map(stringOrUndefined);
        return value === undefined || find === undefined || replacement === undefined ? undefined : value.replace(find, () => replacement);
      }),
    }),
  },
  {
    id: 'STR-SUBSTRING-UTF16-OFFSETS',
    title: 'SubString counts UTF-16 units',
    breaks: ['FN-STR-016'],
    area: 'core',
    description: "SubString takes its start and length in UTF-16 units (JavaScript's `substr`), so it can split a surrogate pair.",
    apply: () => ({
      json: answerTopLevel('substring', (call) => {
        const value = stringOrUndefined(call.substring);
        if (value === undefined || !/[\uD800-\uDFFF]/.test(value)) return undefined;
        const start = integerLiteral(call.start) ?? 0;
        const from = start < 0 ? value.length + start : start;
        const length = integerLiteral(call.length);
        return value.slice(from, length === undefined ? undefined : from + length);
      }),
    }),
  },
  {
    id: 'STR-SUBSTRING-BOUNDS-AT-ARGUMENT',
    title: "SubString's bounds errors are reported at the argument",
    breaks: ['FN-STR-017'],
    area: 'core',
    description: 'A start beyond the string or a negative length is reported at `start` or `length` instead of at the SubString call.',
    apply: () => ({
      json: repositionErrors('substring', (position, description) => {
        if (description.startsWith('start must be')) return [...position, 'start'];
        if (description.startsWith('length must be')) return [...position, 'length'];
        return undefined;
      }),
    }),
  },
  {
    id: 'STR-WRONG-TYPE-INVALID-EXPRESSION',
    title: 'A string function argument of the wrong type is an invalid expression',
    breaks: ['FN-STR-018'],
    area: 'core',
    description: 'Wrong argument types of string functions answer `invalid expression` instead of `invalid argument`.',
    apply: () => ({
      json: rewriteJson(
        (body, context) =>
          context.status === 400 &&
          ['lowercase', 'uppercase', 'titlecase', 'length', 'trim', 'ltrim', 'rtrim', 'search', 'findstr', 'repeat', 'space', 'replacestr', 'substring'].some((form) =>
            expressionUses(context.original, form),
          ),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (error.code === 'invalid argument' && typeof error.description === 'string' && / expected, .* provided\.$/.test(error.description)) {
              error.code = 'invalid expression';
              changed++;
            }
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'CONV-TOSTRING-PYTHON-STYLE',
    title: 'ToString writes booleans and null the Python way',
    breaks: ['FN-CONV-001'],
    area: 'core',
    description: 'ToString answers `True`, `False` and `None` for true, false and null.',
    apply: () => ({
      json: answerTopLevel('to_string', (call) => {
        const names = new Map<unknown, string>([[true, 'True'], [false, 'False'], [null, 'None']]);
        return names.get(call.to_string);
      }),
    }),
  },
  {
    id: 'CONV-TOSTRING-JAVASCRIPT-DOUBLES',
    title: 'ToString writes doubles the JavaScript way',
    breaks: ['FN-CONV-002'],
    area: 'core',
    description: "ToString of a double answers JavaScript's `String(n)`: `1` for 1.0, `10000000` for 1.0E7, `0.0001` for 1.0E-4.",
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 200 && isJsonObject(body) && typeof body.resource === 'string' && expressionUses(context.original, 'to_string'),
        (body) => {
          const text = (body as JsonObject).resource as string;
          if (!/^-?\d+\.\d+(E-?\d+)?$/.test(text)) return false;
          const javascript = String(Number(text));
          if (javascript === text) return false;
          (body as JsonObject).resource = javascript;
          return true;
        },
      ),
    }),
  },
  {
    id: 'CONV-CAST-ERROR-POSITIONS-SWAPPED',
    title: "Conversion errors are reported at the other position",
    breaks: ['FN-CONV-003', 'FN-CONV-006', 'FN-CONV-007', 'FN-CONV-008'],
    area: 'core',
    description: 'ToString and ToNumber report a failed cast at their argument, ToDouble and ToInteger at the call, the reverse of the service.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && ['to_string', 'to_number', 'to_double', 'to_integer'].some((form) => expressionUses(context.original, form)),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            const description = typeof error.description === 'string' ? error.description : '';
            if (!description.startsWith('Cannot cast ') || !Array.isArray(error.position)) continue;
            const last = error.position[error.position.length - 1];
            if (last === 'to_double' || last === 'to_integer') error.position = error.position.slice(0, -1);
            else if (description.endsWith(' to String.')) error.position = [...error.position, 'to_string'];
            else if (description.endsWith(' to Number.')) error.position = [...error.position, 'to_number'];
            else continue;
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'CONV-TONUMBER-JAVASCRIPT-NUMBER',
    title: "ToNumber reads strings with JavaScript's Number",
    breaks: ['FN-CONV-004', 'FN-CONV-005'],
    area: 'core',
    description: 'ToNumber reads a string with `Number()`: `"1.0"` is a double, `"1,234"` and `"12abc"` are not numbers, `"1e3"` is 1000.',
    apply: () => ({
      response: (response, context) => {
        const expression = v4Expression(context.original);
        if (!isJsonObject(expression) || typeof expression.to_number !== 'string') return undefined;
        const text = expression.to_number.trim();
        const value = text === '' ? NaN : Number(text);
        if (Number.isNaN(value)) {
          if (response.status === 400) return undefined;
          return withJsonBody(withStatus(response, 400), { errors: [{ position: [], code: 'invalid argument', description: 'Cannot cast String to Number.' }] });
        }
        return withJsonBody(withStatus(response, 200), { resource: /[.eE]/.test(text) || !Number.isSafeInteger(value) ? jsonDecimal(value) : jsonInt(value) });
      },
    }),
  },
  {
    id: 'CONV-TOINTEGER-ROUNDS',
    title: 'ToInteger rounds a double to the nearest integer',
    breaks: ['FN-CONV-008'],
    area: 'core',
    description: 'ToInteger of a double rounds to the nearest integer instead of truncating toward zero.',
    apply: () => ({
      json: answerTopLevel('to_integer', (call) => {
        const value = decimalLiteral(call.to_integer);
        return value === undefined || Number.isInteger(value) ? undefined : jsonInt(Math.round(value));
      }),
    }),
  },
  {
    id: 'STR-REGEX-EMBEDDED-FLAGS-IGNORED',
    title: 'Regular expressions ignore embedded flags',
    breaks: ['FN-STR-021'],
    area: 'core',
    description: 'The pattern functions drop a leading `(?m)`, `(?i)` or `(?s)` (as an engine without embedded flags would), so `(?m)^3` no longer matches at a line start.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (typeof object.pattern !== 'string' || !/^\(\?[ims]+\)/.test(object.pattern)) return;
          object.pattern = object.pattern.replace(/^\(\?[ims]+\)/, '');
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'STR-REGEX-INVALID-PATTERN-AT-CALL',
    title: 'An invalid pattern is reported at the call',
    breaks: ['FN-STR-022'],
    area: 'core',
    description: 'An invalid regular expression is reported at the position of the function call instead of `["pattern"]`.',
    apply: () => ({
      json: rewriteJson(
        (body, context) => context.status === 400 && expressionUses(context.original, 'pattern'),
        (body) => {
          let changed = 0;
          for (const error of v4Errors(body)) {
            if (!Array.isArray(error.position) || error.position.at(-1) !== 'pattern' || !String(error.description).startsWith('Search pattern')) continue;
            error.position = error.position.slice(0, -1);
            changed++;
          }
          return changed;
        },
      ),
    }),
  },
  {
    id: 'STR-FINDSTRREGEX-END-EXCLUSIVE',
    title: 'FindStrRegex answers the end after the match',
    breaks: ['FN-STR-023'],
    area: 'core',
    description: 'FindStrRegex reports `end` as the offset just past a non-empty match (JavaScript style) instead of the offset of its last character.',
    apply: () => ({
      json: (body, context) => {
        if (context.status !== 200 || topLevelCall(context, 'findstrregex') === undefined || !isJsonObject(body) || !Array.isArray(body.resource)) return undefined;
        let changed = 0;
        for (const match of body.resource) {
          if (!isJsonObject(match) || typeof match.data !== 'string' || match.data === '') continue;
          match.end = jsonInt(Number(String(match.end)) + 1);
          changed++;
        }
        return changed > 0 ? body : undefined;
      },
    }),
  },
  {
    id: 'STR-FINDSTRREGEX-END-AT-LAST-CODE-POINT',
    title: 'FindStrRegex answers the end as the last character\'s code point offset',
    breaks: ['FN-STR-023'],
    area: 'core',
    description: 'FindStrRegex reports `end` as the code point offset of the match\'s last character also when that character is outside the BMP (1 for "😀" in "a😀b"), where the real service counts one more.',
    apply: () => ({
      json: (body, context) => {
        if (context.status !== 200 || topLevelCall(context, 'findstrregex') === undefined || !isJsonObject(body) || !Array.isArray(body.resource)) return undefined;
        let changed = 0;
        for (const match of body.resource) {
          if (!isJsonObject(match) || typeof match.data !== 'string' || (match.data.codePointAt(match.data.length - 2) ?? 0) <= 0xffff) continue;
          match.end = jsonInt(Number(String(match.end)) - 1);
          changed++;
        }
        return changed > 0 ? body : undefined;
      },
    }),
  },
  {
    id: 'STR-FINDSTRREGEX-START-IGNORED',
    title: 'FindStrRegex ignores its start',
    breaks: ['FN-STR-024'],
    area: 'core',
    description: 'FindStrRegex always searches from the beginning of the string whatever `start` says.',
    apply: () => ({ request: dropArgument('findstrregex', 'start') }),
  },
  {
    id: 'STR-FINDSTRREGEX-NUM-RESULTS-IGNORED',
    title: 'FindStrRegex ignores num_results',
    breaks: ['FN-STR-025'],
    area: 'core',
    description: 'FindStrRegex answers every match (up to 1024) whatever `num_results` says.',
    apply: () => ({ request: dropArgument('findstrregex', 'num_results') }),
  },
  {
    id: 'STR-REPLACESTRREGEX-FIRST-IGNORED',
    title: 'ReplaceStrRegex ignores first',
    breaks: ['FN-STR-026'],
    area: 'core',
    description: 'ReplaceStrRegex replaces every match even with `first: true`.',
    apply: () => ({ request: dropArgument('replacestrregex', 'first') }),
  },
  {
    id: 'STR-REGEXESCAPE-BACKSLASHES',
    title: 'RegexEscape escapes with backslashes',
    breaks: ['FN-STR-028'],
    area: 'core',
    description: 'RegexEscape puts a backslash before each metacharacter instead of answering Java\'s `\\Q…\\E` quoting.',
    apply: () => ({
      json: answerTopLevel('regexescape', (call) => (typeof call.regexescape === 'string' ? backslashEscaped(call.regexescape) : undefined)),
    }),
  },
  {
    id: 'STR-NGRAM-BY-SIZE',
    title: 'NGram orders grams by size',
    breaks: ['FN-STR-030'],
    area: 'core',
    description: 'NGram of a string answers all grams of the smaller size, then all of the larger, instead of by starting position.',
    apply: () => ({
      json: answerTopLevel('ngram', (call) => {
        if (typeof call.ngram !== 'string') return undefined;
        const min = 'min' in call ? integerLiteral(call.min) : 1;
        const max = 'max' in call ? integerLiteral(call.max) : 2;
        return min === undefined || max === undefined ? undefined : gramsBySize(call.ngram, min, max);
      }),
    }),
  },
  {
    id: 'STR-NGRAM-ONLY-MAX-ONE-ACCEPTED',
    title: 'NGram with only a max of one takes the default min',
    breaks: ['FN-STR-031'],
    area: 'core',
    description: 'NGram(s, max: 1) answers the one-grams, as a server that fills in the default min of 1 before checking the sizes would, where the real service refuses it with "max ngram size must be > 0 and >= min".',
    apply: () => ({
      response: rewriteResponse(
        (res, ctx) => {
          const call = v4Expression(ctx.original);
          return res.status === 400 && isJsonObject(call) && typeof call.ngram === 'string' && !('min' in call) && integerLiteral(call.max) === 1;
        },
        (res, ctx) => withStatus(withJsonBody(res, { resource: gramsBySize((v4Expression(ctx.original) as JsonObject).ngram as string, 1, 1) }), 200),
      ),
    }),
  },
  {
    id: 'STR-NGRAM-SIZE-ERROR-AT-ARGUMENT',
    title: 'NGram size errors are reported at the size',
    breaks: ['FN-STR-031'],
    area: 'core',
    description: 'An NGram size error is reported at `["min"]` (or `["max"]`) instead of at the NGram call.',
    apply: () => ({
      json: repositionErrors('ngram', (position, description) => {
        const size = /^(min|max) ngram size/.exec(description)?.[1];
        return size === undefined ? undefined : [...position, size];
      }),
    }),
  },
  {
    id: 'STR-CONTAINSSTRREGEX-WHOLE-STRING',
    title: 'ContainsStrRegex matches the whole string',
    breaks: ['FN-STR-020'],
    area: 'core',
    description: "ContainsStrRegex answers whether the pattern matches the whole string (Java's `matches`) instead of some part of it (`find`).",
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('containsstrregex' in object) || typeof object.pattern !== 'string') return;
          object.pattern = `\\A(?:${object.pattern})\\z`;
          changed++;
        });
        return changed;
      }),
    }),
  },
  {
    id: 'STR-REPLACESTRREGEX-TRUTHY-FIRST',
    title: 'ReplaceStrRegex takes any truthy first',
    breaks: ['FN-STR-029'],
    area: 'core',
    description: 'ReplaceStrRegex accepts a `first` that is not a boolean, reading a string or number as true, instead of answering `Boolean expected`.',
    apply: () => ({
      request: rewriteExpression((expression) => {
        let changed = 0;
        forEachObject(expression, (object) => {
          if (!('replacestrregex' in object) || !('first' in object) || typeof object.first === 'boolean' || isJsonObject(object.first)) return;
          object.first = true;
          changed++;
        });
        return changed;
      }),
    }),
  },
];
