/**
 * Format of FQL v4 as the real service evaluates it (profile `v4-functions`, DEC-065;
 * spec/requirements/functions-format.md): a Java format string applied to the values, plus the service's own `%@`
 * and `%^` (the value in the wire JSON of API version 2.1, or of the request's version). The format string is parsed
 * whole before any value is printed; conversions are then printed in order (eval/java-format.ts).
 */
import { DEFAULT_API_VERSION } from '../../codec/api-version.js';
import { renderValue } from '../../codec/v4-value-renderer.js';
import { type QueryError, errors, type Position } from '../../errors/query-error.js';
import { failpoint } from '../../failpoints.js';
import { DateValue, Time, type Value } from '../../values/value.js';
import { expectString } from '../arguments.js';
import type { EvalContext } from '../context.js';
import type { FormDefinition } from '../form-registry.js';
import {
  FormatTooLong,
  IllegalFormat,
  UnknownConversion,
  dateTimeSuffixApplies,
  formatDateTime,
  formatDouble,
  formatLong,
  formatText,
  parseFormatString,
  type ConversionSpec,
  type FormatPiece,
  type Temporal,
} from '../java-format.js';
import { MAX_RESULT_LENGTH, castToString, wrongType } from './strings.js';

// Implements: FN-FMT-003, FN-FMT-004, FN-FMT-006, FN-FMT-011
/** The text of one conversion of `value`; type errors at the value's position, Formatter refusals thrown as is. */
function printConversion(ctx: EvalContext, given: ConversionSpec, value: Value, position: Position): string {
  // Copied only under the failpoint: without failpoints a conversion costs no copy of its spec.
  const spec: ConversionSpec = failpoint('FMT-WIDTH-IGNORED') ? { ...given, width: undefined, flags: given.flags.replace('-', '') } : given;
  switch (spec.kind) {
    case 'long':
      if (typeof value !== 'bigint') throw wrongType('Integer', value, position);
      return formatLong(spec, value, MAX_RESULT_LENGTH);
    case 'double':
      if (typeof value !== 'number') throw wrongType('Number', value, position);
      if (spec.conversion === 'f' && spec.precision !== undefined && failpoint('FMT-FIXED-ROUNDS-BINARY-VALUE'))
        return value.toFixed(Number(spec.precision));
      return formatDouble(spec, value, MAX_RESULT_LENGTH);
    case 'string': {
      const asLower = spec.conversion === 'S' && failpoint('FMT-UPPERCASE-IGNORED');
      return formatText(asLower ? { ...spec, conversion: 's' } : spec, castToString(value, position), MAX_RESULT_LENGTH);
    }
    case 'boolean':
      // The Formatter's %b: false for false and null, true for any other value.
      if (failpoint('FMT-BOOLEAN-PRINTS-VALUE')) return formatText(spec, castToString(value, position), MAX_RESULT_LENGTH);
      return formatText(spec, String(value !== null && value !== false), MAX_RESULT_LENGTH);
    case 'debug': {
      if (failpoint('FMT-DEBUG-IN-REQUEST-VERSION')) return renderValue(value, { apiVersion: ctx.apiVersion });
      const text = renderValue(value, { apiVersion: DEFAULT_API_VERSION });
      return failpoint('FMT-DEBUG-PRETTY-JSON') ? text.replace(/":/g, '": ').replace(/,"/g, ', "') : text;
    }
    case 'fixed-debug':
      return renderValue(value, { apiVersion: ctx.apiVersion });
    case 'date-time': {
      let temporal: Temporal;
      if (value instanceof Time) temporal = { time: value.epochNanos };
      else if (value instanceof DateValue) temporal = { date: value.epochDays };
      else throw wrongType('Date or Time', value, position);
      if (spec.conversion === undefined) return castToString(value, position);
      if (!dateTimeSuffixApplies(spec, temporal)) throw errors.invalidArgument(`Invalid date/time suffix '${spec.source}'.`, position);
      return formatDateTime(spec, temporal, MAX_RESULT_LENGTH);
    }
  }
}

// Implements: FN-FMT-009
function parse(format: string, position: Position): FormatPiece[] {
  try {
    return parseFormatString(format);
  } catch (error) {
    // Failpoint FMT-BAD-CONVERSION-PRINTED-AS-TEXT answers the format as written in place of a refused conversion.
    if (error instanceof UnknownConversion && failpoint('FMT-BAD-CONVERSION-PRINTED-AS-TEXT')) return [{ text: format }];
    if (error instanceof UnknownConversion) throw errors.invalidArgument(`Invalid conversion format '${error.text}'.`, position);
    throw error;
  }
}

// Implements: FN-FMT-001, FN-FMT-002
const format: FormDefinition = {
  required: ['format', 'values'],
  async evaluate(ctx, args) {
    // Both arguments are evaluated before either is checked, as the service does.
    const formatArgument = await args.value(ctx, 'format');
    const given = await args.value(ctx, 'values');
    // Implements: FN-FMT-012
    const numeric = (typeof formatArgument === 'bigint' || typeof formatArgument === 'number') && failpoint('FMT-FORMAT-NUMBER-AS-TEXT');
    const formatText = numeric
      ? castToString(formatArgument, args.position('format'))
      : expectString(formatArgument, args.position('format'));
    const values = Array.isArray(given) ? given : [given];
    const formatPosition = [...args.node.position, 'format'];
    const pieces = parse(formatText, formatPosition);
    const tooLong = (): QueryError => errors.invalidArgument(`result length must be <= ${MAX_RESULT_LENGTH}`, args.node.position);
    let next = 0;
    let length = 0;
    const parts: string[] = [];
    for (const piece of pieces) {
      let text: string;
      if ('text' in piece) text = piece.text;
      else {
        const { spec } = piece;
        let index: number;
        if (spec.index === 0) {
          index = next++;
          if (index >= values.length) throw errors.invalidArgument('format specifiers count must be <= arguments size', formatPosition);
        } else {
          index = spec.index - 1;
          if (index >= values.length) throw errors.invalidArgument('index must be >= 1 and <= arguments size', formatPosition);
        }
        try {
          text = printConversion(ctx, spec, values[index]!, [...args.node.position, 'values', index]);
        } catch (error) {
          if (error instanceof IllegalFormat && failpoint('FMT-BAD-CONVERSION-PRINTED-AS-TEXT')) return formatText;
          if (error instanceof IllegalFormat) throw errors.invalidArgument(`Invalid conversion format '${spec.source}'.`, formatPosition);
          if (error instanceof FormatTooLong) throw tooLong();
          throw error;
        }
      }
      length += text.length;
      if (length > MAX_RESULT_LENGTH) throw tooLong();
      parts.push(text);
    }
    return parts.join('');
  },
};

export const formatForms: FormDefinition[] = [format];
