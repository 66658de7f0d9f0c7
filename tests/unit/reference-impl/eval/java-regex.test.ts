import { describe, expect, it } from 'vitest';
import {
  InvalidReplacement,
  compileJavaPattern,
  findMatches,
  quotePattern,
  replaceMatches,
  type JavaPattern,
} from '../../../../reference-impl/eval/java-regex.js';
import { functionTimeLimit } from '../../../../reference-impl/eval/time-limit.js';

const LIMIT = functionTimeLimit(1000);

function compiled(pattern: string): JavaPattern {
  const result = compileJavaPattern(pattern);
  expect(result, `pattern /${pattern}/ was refused`).toBeDefined();
  return result!;
}

/** The texts of every match of a Java pattern in `text`. */
function matchTexts(pattern: string, text: string): string[] {
  return findMatches(compiled(pattern), text, 100, LIMIT).map((m) => text.slice(m.start, m.end));
}

const replaceAll = (pattern: string, text: string, replacement: string, firstOnly = false): string =>
  replaceMatches(compiled(pattern), text, replacement, firstOnly, 1000, () => new Error('too long'), LIMIT);

describe('compileJavaPattern: Java meanings', () => {
  it.each<[string, string, string[]]>([
    ['.', 'a\nb\u0085c\u2028', ['a', 'b', 'c']],
    ['(?s).', 'a\n', ['a', '\n']],
    ['\\s', 'a b\u00a0c\u000b', [' ', '\u000b']],
    ['\\S+', 'ab\u00a0c d', ['ab\u00a0c', 'd']],
    ['\\w+', 'héllo_1', ['h', 'llo_1']],
    ['\\d', '1٣2', ['1', '2']],
    ['\\h', 'a\tb\u3000', ['\t', '\u3000']],
    ['\\p{Lu}', 'aBÉ', ['B', 'É']],
    ['\\p{Alpha}+', 'abÉc', ['ab', 'c']],
    ['[^\\d]', 'a1', ['a']],
    ['[a-c[x-z]]', 'bdy', ['b', 'y']],
    ['[a[^b]]', 'abc', ['a', 'c']],
    ['(?i)[a-c]', 'AbD', ['A', 'b']],
    ['(?i)[^a]', 'aAb', ['b']],
    ['(?i)straße', 'STRAßE STRASSE', ['STRAßE']],
    ['a(?i)b|c', 'aB C', ['aB', 'C']],
    ['(?i:a)b', 'AB Ab', ['Ab']],
    ['(?i)a(?-i)b', 'AB Ab', ['Ab']],
    ['x$', 'x\n', ['x']],
    ['x$', 'x\r\n', ['x']],
    ['x$', 'x\n\n', []],
    ['(?m)x$', 'x\r\nx', ['x', 'x']],
    ['(?m)$', 'a\r\n', ['', '']],
    ['(?m)^', '', []],
    ['^', '', ['']],
    ['(?m)^a', 'a\na\r\na', ['a', 'a', 'a']],
    ['\\Aa', 'aa', ['a']],
    ['a\\z', 'a\n', []],
    ['a\\Z', 'a\n', ['a']],
    ['\\Qa.b\\E', 'a.b axb', ['a.b']],
    ['\\Qa.b', 'a.b', ['a.b']],
    ['a{2,3}', 'aaaa', ['aaa']],
    ['a{2,3}?', 'aaaa', ['aa', 'aa']],
    ['a{2}', 'aaaaa', ['aa', 'aa']],
    ['\\x41\\u0042\\x{43}\\0104\\t', 'ABCD\t', ['ABCD\t']],
    ['\\uD801\\uDC00+', '\uD801\uDC00\uD801\uDC00', ['\uD801\uDC00\uD801\uDC00']],
    ['\uD801\uDC00?x', 'x', ['x']],
    ['(a)\\1', 'aa', ['aa']],
    ['(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10', 'abcdefghijj', ['abcdefghijj']],
    ['(a)\\10', 'aa0', ['aa0']],
    ['(?<x>a)\\k<x>', 'aa', ['aa']],
    ['(?<=a)b', 'ab b', ['b']],
    ['(?<!a)b', 'ab b', ['b']],
    ['a(?=b)', 'ab ac', ['a']],
    ['\\.\\*\\{', '.*{', ['.*{']],
    ['}]', '}]', ['}]']],
    ['[a-]', '-a', ['-', 'a']],
    ['\\cA', '\u0001', ['\u0001']],
  ])('/%s/ finds its Java matches', (pattern, text, expected) => {
    expect(matchTexts(pattern, text)).toEqual(expected);
  });

  it('resumes one character after an empty match', () => {
    expect(findMatches(compiled('x*'), 'ab', 10, LIMIT).map((m) => [m.start, m.end])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
  });

  it('answers at most the number of matches asked for', () => {
    expect(findMatches(compiled('a'), 'aaaa', 2, LIMIT)).toHaveLength(2);
    expect(findMatches(compiled('a'), 'aaaa', 0, LIMIT)).toHaveLength(0);
  });
});

describe('compileJavaPattern: refusals', () => {
  it.each([
    // Patterns Java rejects.
    '{',
    'a{',
    'a{x}',
    'a{3,2}',
    '*a',
    'a**',
    '(a',
    'a)',
    '[a',
    '[b-a]',
    '\\y',
    '\\',
    '\\k<nope>',
    '(?<1a>x)',
    '(?<a>x)(?<a>y)',
    '\\x4',
    '\\u12',
    '\\0',
    '\\08',
    '(?<=a+)b',
    '(?q)a',
    '(?i)*',
    '[a-\\d]',
    // Valid Java that is not translated faithfully.
    'a*+',
    'a++',
    '(?>a)',
    '[a-z&&[^b]]',
    '[]a]',
    '(?u)a',
    '(?x)a',
    '(?d)a',
    '\\G',
    '\\R',
    '\\X',
    '\\N{LATIN SMALL LETTER A}',
    '\\b{g}',
    '\\p{InGreek}',
    '\\p{IsLatin}',
    '(?i)\\p{Lu}',
    '(a)(?i)\\1',
    '\\1(a)',
    '(a\\1)',
    '(a)(?<=\\1)',
    '[\\Qa\\E]',
    '\\E',
  ])('refuses /%s/', (pattern) => {
    expect(compileJavaPattern(pattern)).toBeUndefined();
  });
});

describe('quotePattern', () => {
  it.each<[string, string]>([
    ['a.b', '\\Qa.b\\E'],
    ['', '\\Q\\E'],
    ['x\\Ey', '\\Qx\\E\\\\E\\Qy\\E'],
    ['\\E', '\\Q\\E\\\\E\\Q\\E'],
    ['\\Q', '\\Q\\Q\\E'],
  ])('quotes %j as Pattern.quote', (text, quoted) => {
    expect(quotePattern(text)).toBe(quoted);
  });

  it.each(['a.b*', 'x\\Ey', '\\E\\E', 'end\\', '(?i)A', '\\Q\\E', '\uD801\uDC00$^'])('matches exactly %j', (text) => {
    expect(matchTexts(quotePattern(text), `<${text}>`)).toEqual([text]);
  });
});

describe('replaceMatches', () => {
  it('replaces every match, or the first', () => {
    expect(replaceAll('a', 'banana', 'o')).toBe('bonono');
    expect(replaceAll('a', 'banana', 'o', true)).toBe('bonana');
  });

  it('expands groups as Matcher.appendReplacement', () => {
    expect(replaceAll('(\\w)(\\w)', 'ab', '$2$1')).toBe('ba');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Java's ${name} group reference in a regex replacement, not a template
    expect(replaceAll('(?<first>a)', 'a', '[${first}]')).toBe('[a]');
    expect(replaceAll('(a)', 'a', '$10')).toBe('a0');
    expect(replaceAll('(a)?b', 'b', '<$1>')).toBe('<>');
    expect(replaceAll('a', 'a', '\\$\\\\x')).toBe('$\\x');
    expect(replaceAll('', 'ab', '-')).toBe('-a-b-');
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: Java's ${name} group reference in a regex replacement, not a template
  it.each(['$', '$x', '$2', '${nope}', 'x\\'])('rejects the replacement %j when something matches', (replacement) => {
    expect(() => replaceAll('(a)', 'a', replacement)).toThrow(InvalidReplacement);
    expect(replaceAll('(a)', 'b', replacement)).toBe('b');
  });

  it('refuses a result longer than the limit', () => {
    expect(() => replaceAll('', 'a'.repeat(100), 'xxxxxxxxxx')).toThrow('too long');
  });
});
