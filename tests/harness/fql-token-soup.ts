/**
 * FQL v10 query text made of tokens in any order: keywords, names, methods, literals (and the broken halves of
 * literals), operators and punctuation. Most such texts do not parse; every one must still answer 200 or a v10 error,
 * never a 5xx (FQL-SYNTAX-003). Used by the conformance property test and by the fuzzer.
 */
import fc from 'fast-check';

const KEYWORDS = ['let', 'if', 'else', 'null', 'true', 'abort', 'isa', 'at'];
const NAMES = ['x', '_', 'Time', 'Date', 'Set', 'Collection', 'Database', 'Key', 'Math'];
const METHODS = ['all', 'where', 'map', 'forEach', 'first', 'toArray', 'paginate', 'sequence', 'byId', 'create', 'update', 'delete'];
const EVENT_METHODS = ['eventSource', 'eventsOn', 'toStream', 'changesOn'];
const LITERALS = ['1', '0', '1.5', '9999999999999999999999', '"s"', "'t'", '"#{1}"', '"unterminated', '\\u{D800}'];
const LITERAL_PARTS = ['"', "'", '`', '#{'];
const OPERATORS = ['=>', '=', '==', '!', '?.', '??', '&&', '||', '+', '-', '*', '/', '%', '**', '$'];
const PUNCTUATION = ['.', ',', ':', ';', '\n', '(', ')', '[', ']', '{', '}'];

export const FQL_TOKENS: readonly string[] = [
  ...KEYWORDS,
  ...NAMES,
  ...METHODS,
  ...EVENT_METHODS,
  ...LITERALS,
  ...LITERAL_PARTS,
  ...OPERATORS,
  ...PUNCTUATION,
];

/** Between `minLength` and `maxLength` tokens (with `extra` ones, such as a collection's name), joined by spaces. */
export function fqlTokenSoup(options: { minLength?: number; maxLength: number; extra?: readonly string[] }): fc.Arbitrary<string> {
  const tokens = fc.constantFrom(...FQL_TOKENS, ...(options.extra ?? []));
  return fc.array(tokens, { minLength: options.minLength ?? 0, maxLength: options.maxLength }).map((parts) => parts.join(' '));
}
