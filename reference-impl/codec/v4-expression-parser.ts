/**
 * Request body → expression tree with positions (wire-facts §1.6), the evaluator's input: two ways that must agree, a
 * one-pass parser for the common body and the plain-JSON way that decides everything else.
 */
import { QueryError, type Position } from '../errors/query-error.js';
import type { Expr } from './v4-ast.js';
import { JsonScanner, parseExactJson } from './exact-json.js';
import {
  ArrayNode,
  EMPTY_FIELDS,
  ExprFields,
  LiteralNode,
  ObjectNode,
  ROOT,
  SCANNED_KEYS,
  withFields,
  type ParsedNode,
} from './v4-expression-nodes.js';
import { wireNumber } from './v4-numbers.js';
import { decodeTagged, isWireTag } from './v4-tagged-values.js';

// Implements: PROTO-BODY-001
/** JSON text → raw tree where `1` is a bigint and `1.0` (or `1e3`) a number, since the wire tells longs by that. */
export function parseJsonText(text: string): unknown {
  try {
    return parseExactJson(text, wireNumber);
  } catch {
    throw new QueryError('invalid expression', 'Request body is not valid JSON.', []);
  }
}

// Implements: LIMIT-BODY-003, LIMIT-BODY-004
/** Nesting deeper than this is refused rather than risking the stack. */
export const MAX_EXPRESSION_DEPTH = 512;

// Implements: PROTO-BODY-001, PROTO-BODY-002
/**
 * Request body → expression tree. Empty bodies and invalid JSON are `invalid expression` at `[]`.
 *
 * The tree is built in one pass over the text (`ExpressionParser`). Whatever that pass does not take (any error,
 * a repeated key, a key that is an array index) is parsed again the long way, into plain JSON and then into nodes,
 * which decides: so both ways always agree, and the error a body gets is the long way's.
 *
 * Bodies longer than `ONE_PASS_MAX_CHARS` take the long way too: a large batch lives long enough to reach the old
 * generation, where the one-pass tree keeps more memory than the long way's.
 */
export function parseExpression(text: string): Expr {
  if (text.trim() === '') throw new QueryError('invalid expression', 'No query provided.', []);
  try {
    if (text.length <= ONE_PASS_MAX_CHARS) return new ExpressionParser(text).expression();
  } catch {
    // What the one pass refuses, the long way decides, and words the error of.
  }
  return toExpr(parseJsonText(text), []);
}

/** Already-parsed JSON (a stored lambda's body, a binding) → expression tree, starting at `position`. */
export function toExpr(raw: unknown, position: Position): Expr {
  return nodeOf(raw, position, undefined, undefined, 0);
}

function nodeOf(raw: unknown, base: Position, parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
  if (base.length + depth > MAX_EXPRESSION_DEPTH) {
    throw new QueryError('invalid expression', 'Expression nesting is too deep.', new LiteralNode(raw, base, parent, step).position);
  }
  if (raw === null || typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'bigint' || typeof raw === 'number') {
    const literal = new LiteralNode(raw, base, parent, step);
    literal.value = raw;
    return literal;
  }
  if (Array.isArray(raw)) {
    const array = new ArrayNode(raw, base, parent, step);
    array.items = raw.map((item, i) => nodeOf(item, base, array, i, depth + 1));
    return array;
  }
  const object = raw as Record<string, unknown>;
  const keys = Object.keys(object);
  // Only the wire's own tags are values. Any other `@` key is a field name: drivers send a user object with such
  // keys as `{"object": {"@x": …}}` (wire-facts §@obj), and elsewhere it is an unknown form, refused as one.
  if (keys.length === 1 && isWireTag(keys[0]!)) {
    const literal = new LiteralNode(raw, base, parent, step);
    literal.value = decodeTagged(keys[0]!, object[keys[0]!], literal.position);
    return literal;
  }
  const node = new ObjectNode(object, base, parent, step);
  const exprs = new Array<Expr>(keys.length);
  for (let i = 0; i < keys.length; i++) exprs[i] = nodeOf(object[keys[i]!], base, node, keys[i], depth + 1);
  node.fields = new ExprFields(keys, exprs);
  return node;
}

/** The longest body parsed in one pass (see `parseExpression`); a query a driver sends is far shorter. */
const ONE_PASS_MAX_CHARS = 16 * 1024;

/**
 * Builds expression nodes straight from the text, without building and reading back the plain JSON tree in between.
 * It takes only what the long way (`toExpr` of `parseJsonText`) would turn into the same tree, and fails on
 * anything else (see `parseExpression`).
 */
class ExpressionParser extends JsonScanner {
  constructor(text: string) {
    super(text, wireNumber);
  }

  expression(): Expr {
    this.skipWhitespace();
    const expr = this.node(undefined, undefined, 0);
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail('end of input');
    return expr;
  }

  private node(parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
    if (depth > MAX_EXPRESSION_DEPTH) this.fail('less nesting');
    const c = this.text.charCodeAt(this.at);
    if (c === 0x7b /* { */) return this.object(parent, step, depth);
    if (c === 0x5b /* [ */) return this.array(parent, step, depth);
    const value = this.scalar() as string | number | bigint | boolean | null;
    const literal = new LiteralNode(value, ROOT, parent, step);
    literal.value = value;
    return literal;
  }

  private array(parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
    const text = this.text;
    const array = new ArrayNode(undefined, ROOT, parent, step);
    const items: Expr[] = [];
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === 0x5d /* ] */) {
      this.at++;
    } else {
      for (;;) {
        items.push(this.node(array, items.length, depth + 1));
        this.skipWhitespace();
        const c = text.charCodeAt(this.at++);
        if (c === 0x5d /* ] */) break;
        if (c !== 0x2c /* , */) this.fail("',' or ']'");
        this.skipWhitespace();
      }
    }
    array.items = items;
    return array;
  }

  private object(parent: ParsedNode | undefined, step: string | number | undefined, depth: number): Expr {
    const text = this.text;
    const node = new ObjectNode(undefined, ROOT, parent, step);
    // Most objects of a query have one key: its entry waits in locals and the arrays are made at their size (an
    // array grown by pushing holds room for sixteen).
    let firstName: string | undefined;
    let firstExpr: Expr | undefined;
    let names: string[] | undefined;
    let exprs: Expr[] | undefined;
    let seen: Set<string> | undefined;
    this.at++;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === 0x7d /* } */) {
      this.at++;
    } else {
      for (;;) {
        if (text.charCodeAt(this.at) !== 0x22 /* " */) this.fail('a quoted object key');
        const name = this.string();
        // A plain object lists array-index keys first, so the long way's key order differs; a repeated key is
        // refused or merged there.
        const first = name.charCodeAt(0);
        if (first >= 0x30 && first <= 0x39) this.fail('a key that is not an array index');
        let repeated: boolean;
        if (names === undefined) repeated = name === firstName;
        else if (names.length < SCANNED_KEYS) repeated = names.includes(name);
        else {
          seen ??= new Set(names);
          repeated = seen.has(name);
        }
        if (repeated) this.fail('no repeated key');
        seen?.add(name);
        this.skipWhitespace();
        if (text.charCodeAt(this.at) !== 0x3a /* : */) this.fail("':'");
        this.at++;
        this.skipWhitespace();
        const expr = this.node(node, name, depth + 1);
        if (firstExpr === undefined) {
          firstName = name;
          firstExpr = expr;
        } else if (names === undefined) {
          names = [firstName!, name];
          exprs = [firstExpr, expr];
        } else {
          names.push(name);
          exprs!.push(expr);
        }
        this.skipWhitespace();
        const c = text.charCodeAt(this.at++);
        if (c === 0x7d /* } */) break;
        if (c !== 0x2c /* , */) this.fail("',' or '}'");
        this.skipWhitespace();
      }
    }
    if (names === undefined) {
      if (firstExpr === undefined) return withFields(node, EMPTY_FIELDS);
      // Tested by its first character first, so most keys are never hashed.
      if (firstName!.charCodeAt(0) === 0x40 /* @ */ && isWireTag(firstName!)) {
        const body = firstExpr.raw;
        const literal = new LiteralNode({ [firstName!]: body }, ROOT, parent, step);
        literal.value = decodeTagged(firstName!, body, literal.position);
        return literal;
      }
      return withFields(node, new ExprFields([firstName!], [firstExpr]));
    }
    return withFields(node, new ExprFields(names, exprs!));
  }
}
