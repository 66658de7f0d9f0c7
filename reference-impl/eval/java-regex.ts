/**
 * Java's `java.util.regex` as the real service used it for the regular-expression string functions
 * (spec/requirements/functions-strings.md, FN-STR-020 on). A Java pattern is translated into an equivalent
 * JavaScript one, construct by construct, where the two engines agree once the Java meaning is spelled out (`.`,
 * `^`, `$`, `\s`, `(?i)` and the line terminators all differ between them). A pattern Java rejects, and one that
 * uses a construct with no faithful translation (possessive quantifiers, atomic groups, class intersections,
 * Unicode-case and comment flags, `\G`, `\R`, …), is refused: the caller answers the invalid-pattern error.
 */
import { withinTimeLimit, type TimeLimit } from './time-limit.js';

/** A translated pattern: a global, code-point (`u`) JavaScript regular expression and its capturing groups. */
export interface JavaPattern {
  readonly regex: RegExp;
  readonly groupCount: number;
  readonly groupNames: ReadonlyMap<string, number>;
}

/** One match: UTF-16 offsets into the searched text and the groups' texts (undefined for a group that did not take part). */
export interface JavaMatch {
  readonly start: number;
  readonly end: number;
  readonly groups: readonly (string | undefined)[];
}

/** A replacement string Java's `Matcher.appendReplacement` rejects. */
export class InvalidReplacement extends Error {}

class Refused extends Error {}

interface Flags {
  caseInsensitive: boolean;
  multiline: boolean;
  dotAll: boolean;
}

/** Java's line terminators (without UNIX_LINES): what `.` does not match and where `^`/`$` see lines. */
const TERMINATORS = '\\n\\r\\u0085\\u2028\\u2029';
const END = '(?![\\s\\S])';

type Range = readonly [number, number];

/** A character class: code point ranges, JavaScript property escapes, nested classes (union), maybe negated. */
interface ClassNode {
  negated: boolean;
  ranges: Range[];
  properties: string[];
  nested: ClassNode[];
}

const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
const HORIZONTAL: Range[] = [
  [0x09, 0x09],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x180e, 0x180e],
  [0x2000, 0x200a],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
const VERTICAL: Range[] = [
  [0x0a, 0x0d],
  [0x85, 0x85],
  [0x2028, 0x2029],
];

/** Java's POSIX classes (`\p{Alpha}` …), which are ASCII-only. */
const POSIX: ReadonlyMap<string, Range[]> = new Map<string, Range[]>([
  ['Lower', [[0x61, 0x7a]]],
  ['Upper', [[0x41, 0x5a]]],
  ['ASCII', [[0x00, 0x7f]]],
  [
    'Alpha',
    [
      [0x41, 0x5a],
      [0x61, 0x7a],
    ],
  ],
  ['Digit', DIGIT],
  [
    'Alnum',
    [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x61, 0x7a],
    ],
  ],
  [
    'Punct',
    [
      [0x21, 0x2f],
      [0x3a, 0x40],
      [0x5b, 0x60],
      [0x7b, 0x7e],
    ],
  ],
  ['Graph', [[0x21, 0x7e]]],
  ['Print', [[0x20, 0x7e]]],
  [
    'Blank',
    [
      [0x09, 0x09],
      [0x20, 0x20],
    ],
  ],
  [
    'Cntrl',
    [
      [0x00, 0x1f],
      [0x7f, 0x7f],
    ],
  ],
  [
    'XDigit',
    [
      [0x30, 0x39],
      [0x41, 0x46],
      [0x61, 0x66],
    ],
  ],
  ['Space', SPACE],
]);

const GENERAL_CATEGORY = /^(?:L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?)$/;

/** The ranges of the predefined classes, by their letter. */
const PREDEFINED_CLASSES: ReadonlyMap<string, Range[]> = new Map([
  ['d', DIGIT],
  ['w', WORD],
  ['s', SPACE],
  ['h', HORIZONTAL],
  ['v', VERTICAL],
]);

function classOf(ranges: Range[], negated = false): ClassNode {
  return { negated, ranges: [...ranges], properties: [], nested: [] };
}

function hex(code: number): string {
  return `\\u{${code.toString(16)}}`;
}

/** The ranges with their ASCII other-case counterparts added: Java's CASE_INSENSITIVE without UNICODE_CASE. */
function withAsciiCase(ranges: readonly Range[]): Range[] {
  const out = [...ranges];
  for (const [lo, hi] of ranges) {
    const lower: Range = [Math.max(lo, 0x61), Math.min(hi, 0x7a)];
    const upper: Range = [Math.max(lo, 0x41), Math.min(hi, 0x5a)];
    if (lower[0] <= lower[1]) out.push([lower[0] - 32, lower[1] - 32]);
    if (upper[0] <= upper[1]) out.push([upper[0] + 32, upper[1] + 32]);
  }
  return out;
}

function emitClass(node: ClassNode, caseInsensitive: boolean): string {
  if (caseInsensitive && node.properties.length > 0) throw new Refused();
  const ranges = caseInsensitive ? withAsciiCase(node.ranges) : node.ranges;
  const members = ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('') + node.properties.join('');
  if (node.nested.length === 0) return `[${node.negated ? '^' : ''}${members}]`;
  const union = [`[${members}]`, ...node.nested.map((nested) => emitClass(nested, caseInsensitive))].join('|');
  return node.negated ? `(?:(?!${union})[\\s\\S])` : `(?:${union})`;
}

function emitLiteral(code: number, flags: Flags): string {
  const isAsciiLetter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  if (flags.caseInsensitive && isAsciiLetter) return emitClass(classOf([[code, code]]), true);
  return hex(code);
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isLetter = (c: string | undefined): boolean => c !== undefined && /^[a-zA-Z]$/.test(c);

// Implements: FN-STR-021
/** A recursive-descent reader of a Java pattern that writes the JavaScript equivalent as it goes. */
class Translator {
  private readonly chars: string[];
  private pos = 0;
  groupCount = 0;
  readonly groupNames = new Map<string, number>();
  private readonly openGroups: number[] = [];
  private lookbehindDepth = 0;

  constructor(pattern: string) {
    this.chars = Array.from(pattern);
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }

  private next(): string {
    const c = this.chars[this.pos++];
    if (c === undefined) throw new Refused();
    return c;
  }

  private accept(text: string): boolean {
    for (let i = 0; i < text.length; i++) if (this.peek(i) !== text[i]) return false;
    this.pos += text.length;
    return true;
  }

  translate(): string {
    const source = this.alternation({ caseInsensitive: false, multiline: false, dotAll: false });
    if (this.pos < this.chars.length) throw new Refused(); // an unmatched ')'
    return source;
  }

  private alternation(flags: Flags): string {
    const branches = [this.sequence(flags)];
    while (this.accept('|')) branches.push(this.sequence(flags));
    return branches.join('|');
  }

  private sequence(flags: Flags): string {
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') return out;
      const atom = this.atom(flags);
      out += atom === undefined ? this.noQuantifier() : this.quantified(atom);
    }
  }

  /** After a flag group such as `(?i)`, which is not an atom: a quantifier there is dangling. */
  private noQuantifier(): string {
    if (['*', '+', '?', '{'].includes(this.peek() ?? '')) throw new Refused();
    return '';
  }

  private quantified(atom: string): string {
    const c = this.peek();
    let quantifier: string;
    let unbounded = false;
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      quantifier = c;
      unbounded = c !== '?';
    } else if (c === '{') {
      this.pos++;
      const min = this.number();
      let max: number | undefined = min;
      if (this.accept(',')) max = isDigit(this.peek()) ? this.number() : undefined;
      if (!this.accept('}') || (max !== undefined && max < min)) throw new Refused();
      unbounded = max === undefined;
      quantifier = max === min ? `{${min}}` : `{${min},${max ?? ''}}`;
    } else return atom;
    // Java's look-behind needs a bounded length; a possessive quantifier has no JavaScript equivalent.
    if (unbounded && this.lookbehindDepth > 0) throw new Refused();
    if (this.peek() === '+') throw new Refused();
    if (this.accept('?')) quantifier += '?';
    return `(?:${atom})${quantifier}`;
  }

  private number(): number {
    let digits = '';
    while (isDigit(this.peek())) digits += this.next();
    const value = Number(digits);
    if (digits === '' || value > 0x7fffffff) throw new Refused();
    return value;
  }

  /** One atom as JavaScript source, or undefined for a flag group that matches nothing. */
  private atom(flags: Flags): string | undefined {
    const c = this.next();
    switch (c) {
      case '(':
        return this.group(flags);
      case '[':
        return emitClass(this.characterClass(), flags.caseInsensitive);
      case '.':
        return flags.dotAll ? '[\\s\\S]' : `[^${TERMINATORS}]`;
      case '^':
        // Multiline: after any terminator but not inside \r\n, and (as Perl) never at the very end.
        return flags.multiline ? `(?<![^${TERMINATORS}])(?!(?<=\\r)\\n)(?=[\\s\\S])` : '(?<![\\s\\S])';
      case '$':
        return flags.multiline ? `(?:${END}|(?!(?<=\\r)\\n)(?=[${TERMINATORS}]))` : this.endBeforeFinalTerminator();
      case '\\':
        return this.escape(flags);
      case '*':
      case '+':
      case '?':
      case '{':
        throw new Refused(); // a dangling quantifier
      default:
        return emitLiteral(c.codePointAt(0)!, flags);
    }
  }

  /** Java's `$` and `\Z` without MULTILINE: the end, or before one final line terminator (\r\n counting as one). */
  private endBeforeFinalTerminator(): string {
    return `(?:${END}|(?=\\r\\n${END})|(?<!\\r)(?=\\n${END})|(?=[\\r\\u0085\\u2028\\u2029]${END}))`;
  }

  private group(flags: Flags): string | undefined {
    const inner = { ...flags };
    let open: string;
    let capturing: number | undefined;
    let lookbehind = false;
    if (!this.accept('?')) {
      capturing = ++this.groupCount;
      open = '(';
    } else if (this.accept(':')) open = '(?:';
    else if (this.accept('=')) open = '(?=';
    else if (this.accept('!')) open = '(?!';
    else if (this.accept('<=')) [open, lookbehind] = ['(?<=', true];
    else if (this.accept('<!')) [open, lookbehind] = ['(?<!', true];
    else if (this.accept('<')) {
      let name = '';
      while (this.peek() !== '>') name += this.next();
      this.pos++;
      if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(name) || this.groupNames.has(name)) throw new Refused();
      capturing = ++this.groupCount;
      this.groupNames.set(name, capturing);
      open = `(?<${name}>`;
    } else {
      // Inline flags: (?flags) for the rest of the enclosing group, or (?flags:…) for the group.
      let on = true;
      for (;;) {
        const c = this.next();
        if (c === ')') {
          Object.assign(flags, inner);
          return undefined;
        }
        if (c === ':') break;
        if (c === '-') on = false;
        else if (c === 'i') inner.caseInsensitive = on;
        else if (c === 'm') inner.multiline = on;
        else if (c === 's') inner.dotAll = on;
        else throw new Refused(); // unknown, or UNICODE_CASE, COMMENTS, UNIX_LINES, UNICODE_CHARACTER_CLASS
      }
      open = '(?:';
    }
    if (capturing !== undefined) this.openGroups.push(capturing);
    if (lookbehind) this.lookbehindDepth++;
    const body = this.alternation(inner);
    if (lookbehind) this.lookbehindDepth--;
    if (capturing !== undefined) this.openGroups.pop();
    if (!this.accept(')')) throw new Refused();
    return `${open}${body})`;
  }

  /** A back reference JavaScript reads as Java does: to a group already closed, case-sensitive, not in a look-behind. */
  private backReference(group: number, flags: Flags, source: string): string {
    if (group > this.groupCount || this.openGroups.includes(group) || flags.caseInsensitive || this.lookbehindDepth > 0)
      throw new Refused();
    return `(?:${source})`;
  }

  private escape(flags: Flags): string {
    const c = this.next();
    if (c >= '1' && c <= '9') {
      // Java reads further digits while they still name a group opened so far.
      let group = Number(c);
      while (isDigit(this.peek()) && group * 10 + Number(this.peek()) <= this.groupCount) group = group * 10 + Number(this.next());
      return this.backReference(group, flags, `\\${group}`);
    }
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S':
      case 'h':
      case 'H':
      case 'v':
      case 'V':
      case 'p':
      case 'P':
        return emitClass(this.predefinedClass(c), flags.caseInsensitive);
      case 'b':
        if (this.peek() === '{') throw new Refused();
        return '\\b';
      case 'B':
        return '\\B';
      case 'A':
        return '(?<![\\s\\S])';
      case 'z':
        return END;
      case 'Z':
        return this.endBeforeFinalTerminator();
      case 'Q': {
        let out = '';
        while (this.pos < this.chars.length && !this.accept('\\E')) out += emitLiteral(this.next().codePointAt(0)!, flags);
        return `(?:${out})`;
      }
      case 'k': {
        if (!this.accept('<')) throw new Refused();
        let name = '';
        while (this.peek() !== '>') name += this.next();
        this.pos++;
        const group = this.groupNames.get(name);
        if (group === undefined) throw new Refused();
        return this.backReference(group, flags, `\\k<${name}>`);
      }
      default:
        return emitLiteral(this.literalEscape(c), flags);
    }
  }

  /** The code point of an escape that stands for one character (`\n`, `\x41`, `\u00e9`, `\.` …). */
  private literalEscape(c: string): number {
    switch (c) {
      case 't':
        return 0x09;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 'f':
        return 0x0c;
      case 'a':
        return 0x07;
      case 'e':
        return 0x1b;
      case 'c':
        return this.next().codePointAt(0)! ^ 64;
      case '0': {
        // One to three octal digits, at most 0377.
        let digits = '';
        while (digits.length < 3 && /^[0-7]$/.test(this.peek() ?? '') && (digits.length < 2 || digits[0]! <= '3')) digits += this.next();
        if (digits === '') throw new Refused();
        return parseInt(digits, 8);
      }
      case 'x': {
        if (this.accept('{')) {
          let digits = '';
          while (isHex(this.peek())) digits += this.next();
          const code = parseInt(digits, 16);
          if (digits === '' || !this.accept('}') || code > 0x10ffff) throw new Refused();
          return code;
        }
        const digits = this.next() + this.next();
        if (!/^[0-9a-fA-F]{2}$/.test(digits)) throw new Refused();
        return parseInt(digits, 16);
      }
      case 'u': {
        const code = this.hex4();
        // A \u escape of a high surrogate followed by one of a low surrogate is one code point, as in Java.
        if (code >= 0xd800 && code <= 0xdbff && this.peek() === '\\' && this.peek(1) === 'u') {
          const save = this.pos;
          this.pos += 2;
          const low = this.hex4();
          if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          this.pos = save;
        }
        return code;
      }
      default:
        // Any other letter is not an escape Java defines (or one not translated: \G, \R, \X, \N, \E); other characters stand for themselves.
        if (isLetter(c) || isDigit(c)) throw new Refused();
        return c.codePointAt(0)!;
    }
  }

  private hex4(): number {
    let digits = '';
    for (let i = 0; i < 4; i++) digits += this.next();
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new Refused();
    return parseInt(digits, 16);
  }

  /** `\d`, `\w`, `\s`, `\h`, `\v` and their upper-case complements; `\p` and `\P` otherwise. */
  private predefinedClass(c: string): ClassNode {
    const lower = c.toLowerCase();
    const ranges = PREDEFINED_CLASSES.get(lower);
    return ranges === undefined ? this.property(c === 'P') : classOf(ranges, c !== lower);
  }

  /** `\p{…}`: a POSIX class or a Unicode general category (`\pL`, `\p{Lu}`, `\p{IsLu}`); other properties are refused. */
  private property(negated: boolean): ClassNode {
    let name: string;
    if (this.accept('{')) {
      name = '';
      while (this.peek() !== '}') name += this.next();
      this.pos++;
    } else name = this.next();
    const posix = POSIX.get(name);
    if (posix !== undefined) return classOf(posix, negated);
    const category = name.startsWith('Is') ? name.slice(2) : name;
    if (!GENERAL_CATEGORY.test(category)) throw new Refused();
    return { negated: false, ranges: [], properties: [`\\${negated ? 'P' : 'p'}{${category}}`], nested: [] };
  }

  /** A character class after its `[`, through its `]`. */
  private characterClass(): ClassNode {
    const node: ClassNode = { negated: this.accept('^'), ranges: [], properties: [], nested: [] };
    if (this.peek() === ']') throw new Refused(); // Java's reading of a leading ']' is not translated
    for (;;) {
      const c = this.next();
      if (c === ']') return node;
      if (c === '[') {
        node.nested.push(this.characterClass());
        continue;
      }
      if (c === '&' && this.peek() === '&') throw new Refused(); // intersection
      let low: number;
      if (c === '\\') {
        const e = this.next();
        if ('dDwWsShHvVpP'.includes(e)) {
          const set = this.predefinedClass(e);
          if (set.negated) node.nested.push(set);
          else {
            node.ranges.push(...set.ranges);
            node.properties.push(...set.properties);
          }
          continue;
        }
        if (e === 'Q' || (e >= '1' && e <= '9')) throw new Refused();
        low = this.literalEscape(e);
      } else low = c.codePointAt(0)!;
      let high = low;
      if (this.peek() === '-' && this.peek(1) !== ']') {
        this.pos++;
        const d = this.next();
        if (d === '[') throw new Refused();
        high = d === '\\' ? this.literalEscape(this.next()) : d.codePointAt(0)!;
        if (high < low) throw new Refused();
      }
      node.ranges.push([low, high]);
    }
  }
}

// Implements: FN-STR-021
/** The JavaScript equivalent of a Java pattern, or undefined when Java rejects it or it cannot be translated faithfully. */
export function compileJavaPattern(pattern: string): JavaPattern | undefined {
  try {
    const translator = new Translator(pattern);
    const source = translator.translate();
    return { regex: new RegExp(source, 'gu'), groupCount: translator.groupCount, groupNames: translator.groupNames };
  } catch (error) {
    if (error instanceof Refused || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

// Implements: FN-STR-028
/** `Pattern.quote`: a pattern matching `text` literally, `\Q…\E` with any `\E` inside spelled out. */
export function quotePattern(text: string): string {
  return `\\Q${text.split('\\E').join('\\E\\\\E\\Q')}\\E`;
}

/**
 * `Matcher.find` repeated: `each` gets the successive matches from the start until it answers false; after an empty
 * match the search moves on one character. A callback rather than a generator: a replacement over a mebibyte of
 * one-character matches spent most of its time in generator steps and match copies.
 */
function forEachMatch(pattern: JavaPattern, text: string, each: (match: JavaMatch) => boolean): void {
  const regex = new RegExp(pattern.regex);
  while (regex.lastIndex <= text.length) {
    const found = regex.exec(text);
    if (found === null) return;
    const start = found.index;
    const end = start + found[0].length;
    if (!each({ start, end, groups: found })) return;
    // An empty match moves on one code point (two units for a surrogate pair), as Java's Matcher does.
    if (end === start) regex.lastIndex = end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1);
  }
}

/** The first `limit` matches of `pattern` in `text`, as `Matcher.find` finds them, within `timeLimit`. */
export function findMatches(pattern: JavaPattern, text: string, limit: number, timeLimit: TimeLimit): JavaMatch[] {
  const matches: JavaMatch[] = [];
  if (limit <= 0) return matches;
  return withinTimeLimit('A regular expression', timeLimit, () => {
    forEachMatch(pattern, text, (match) => matches.push(match) < limit);
    return matches;
  });
}

// Implements: FN-STR-026
/** The text of `Matcher.appendReplacement` for one match: `$n` and `${name}` groups, `\` escaping the next character. */
function expandReplacement(pattern: JavaPattern, replacement: string, match: JavaMatch): string {
  let out = '';
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]!;
    if (c === '\\') {
      if (++i === replacement.length) throw new InvalidReplacement('character to be escaped is missing');
      out += replacement[i];
    } else if (c === '$') {
      if (++i === replacement.length) throw new InvalidReplacement('group index is missing');
      let group: number;
      if (replacement[i] === '{') {
        const close = replacement.indexOf('}', i);
        const name = close < 0 ? '' : replacement.slice(i + 1, close);
        const named = pattern.groupNames.get(name);
        if (named === undefined) throw new InvalidReplacement(`no group named ${name}`);
        group = named;
        i = close;
      } else {
        if (!isDigit(replacement[i])) throw new InvalidReplacement('illegal group reference');
        group = Number(replacement[i]);
        // Further digits are taken while they still name a group of the pattern.
        while (isDigit(replacement[i + 1]) && group * 10 + Number(replacement[i + 1]) <= pattern.groupCount)
          group = group * 10 + Number(replacement[++i]);
        if (group > pattern.groupCount) throw new InvalidReplacement(`no group ${group}`);
      }
      out += match.groups[group] ?? '';
    } else out += c;
  }
  return out;
}

/**
 * `Matcher.replaceAll` (or `replaceFirst`): every match replaced by the expanded replacement. Throws
 * InvalidReplacement for a replacement Java rejects (only when something matches), and `tooLong` when the result would
 * exceed `maxLength`; within `timeLimit`.
 */
export function replaceMatches(
  pattern: JavaPattern,
  text: string,
  replacement: string,
  firstOnly: boolean,
  maxLength: number,
  tooLong: () => Error,
  timeLimit: TimeLimit,
): string {
  return withinTimeLimit('A regular expression', timeLimit, () => {
    // Without `$` or `\\` a replacement expands to itself.
    const literal = /[$\\]/.test(replacement) ? undefined : replacement;
    let out = '';
    let last = 0;
    forEachMatch(pattern, text, (match) => {
      out += text.slice(last, match.start) + (literal ?? expandReplacement(pattern, replacement, match));
      last = match.end;
      if (out.length + text.length - last > maxLength) throw tooLong();
      return !firstOnly;
    });
    return out + text.slice(last);
  });
}
