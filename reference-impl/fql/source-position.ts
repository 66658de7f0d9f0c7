/**
 * Where something sits in FQL query text. Offsets and columns count UTF-16 code units (JavaScript string
 * indexes); lines and columns start at 1, offsets at 0. For a fragment query (`{"fql": [...]}`) the text is
 * the concatenation of the fragment's text pieces; interpolated values occupy no text.
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A half-open range `[start, end)` of query text. */
export interface SourceSpan {
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

export function spanBetween(first: SourceSpan, last: SourceSpan): SourceSpan {
  return { start: first.start, end: last.end };
}

/** The span of something the query text does not spell out (an implied `take`, a field read for an event). */
export const NO_SPAN: SourceSpan = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };
