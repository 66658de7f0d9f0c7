/**
 * The form registry: a v4 form is a JSON object recognised by its key set. Each area declares its forms in
 * a file under `eval/forms/` and registers them here; the evaluator looks forms up by the keys of an object.
 */
import type { Expr, ObjectExpr } from '../codec/v4-ast.js';
import type { Position } from '../errors/query-error.js';
import type { Value } from '../values/value.js';
import type { EvalContext } from './context.js';

/** The arguments of a matched form, unevaluated (forms such as `lambda`, `if` and `and` choose what to evaluate). */
export class FormArgs {
  constructor(readonly node: ObjectExpr) {}

  has(key: string): boolean {
    return this.node.fields.has(key);
  }

  expr(key: string): Expr {
    const expr = this.node.fields.get(key);
    if (!expr) throw new Error(`form argument ${key} is absent`);
    return expr;
  }

  /** Where an argument sits in the request (its JSON path). */
  position(key: string): Position {
    return this.node.fields.get(key)?.position ?? this.node.position;
  }

  /** Evaluates an argument. */
  value(ctx: EvalContext, key: string): Promise<Value> {
    return ctx.eval(this.expr(key));
  }

  /**
   * An argument's value, at once when it could be evaluated without waiting, else the promise of its evaluation
   * (values are never promises). Hot forms use it so that an argument costs no `await` (a suspension and a
   * resumption) when nothing needs one. Failures may be thrown at once.
   */
  valueOrPending(ctx: EvalContext, key: string): Value | Promise<Value> {
    return ctx.evalNow(this.expr(key));
  }

  /** Evaluates an optional argument; undefined when absent. */
  async optional(ctx: EvalContext, key: string): Promise<Value | undefined> {
    return this.has(key) ? ctx.eval(this.expr(key)) : undefined;
  }
}

export interface FormDefinition {
  /** Keys that must all be present; the first one names the form in messages. */
  readonly required: readonly [string, ...string[]];
  /** Keys that may be present as well. */
  readonly optional?: readonly string[];
  /**
   * Evaluates the form; `position` of errors defaults to the form's position. Forms on hot paths answer at once
   * (a value, or a synchronous throw) when nothing they do needs to wait; the rest are async functions.
   */
  evaluate(ctx: EvalContext, args: FormArgs): Value | Promise<Value>;
}

interface RegisteredForm {
  readonly form: FormDefinition;
  readonly allowed: ReadonlySet<string>;
}

export class FormRegistry {
  private readonly byFirstKey = new Map<string, RegisteredForm[]>();

  register(...forms: readonly FormDefinition[]): this {
    for (const form of forms) {
      const list = this.byFirstKey.get(form.required[0]) ?? [];
      list.push({ form, allowed: new Set([...form.required, ...(form.optional ?? [])]) });
      this.byFirstKey.set(form.required[0], list);
    }
    return this;
  }

  /** The form whose required keys are all present and whose allowed keys cover every present key. */
  match(present: ReadonlyMap<string, unknown>): FormDefinition | undefined {
    for (const key of present.keys()) {
      const candidates = this.byFirstKey.get(key);
      if (candidates === undefined) continue;
      for (let i = 0; i < candidates.length; i++) {
        if (fits(candidates[i]!, present)) return candidates[i]!.form;
      }
    }
    return undefined;
  }
}

/** Whether every key `form` requires is present and every present key is one it allows (loops, not closures: this runs for every form evaluated). */
function fits({ form, allowed }: RegisteredForm, present: ReadonlyMap<string, unknown>): boolean {
  const required = form.required;
  for (let i = 0; i < required.length; i++) if (!present.has(required[i]!)) return false;
  for (const key of present.keys()) if (!allowed.has(key)) return false;
  return true;
}
