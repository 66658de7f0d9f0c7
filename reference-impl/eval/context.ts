/** The state one evaluation carries: transaction, acting database and identity, variables, services. */
import type { Expr } from '../codec/v4-ast.js';
import type { ApiVersion } from '../codec/api-version.js';
import type { DatabaseId } from '../store/store.js';
import type { Transaction } from '../txn/transaction.js';
import type { Position } from '../errors/query-error.js';
import type { OrderedSet } from '../indexes/ordered-set.js';
import type { Value } from '../values/value.js';
import type { AccessPolicy } from './access.js';
import type { FormRegistry } from './form-registry.js';
import type { Identity } from '../auth/identity.js';
import type { IssuedSecret } from '../auth/secrets.js';
import type { NativeCollectionHandlers } from './native-collections.js';
import type { QueryLimits } from './query-limits.js';

/** Lexical variable scope (immutable; `extend` makes a child). */
export class Scope {
  static readonly EMPTY = new Scope(new Map(), undefined);

  private constructor(
    private readonly vars: ReadonlyMap<string, Value>,
    private readonly parent: Scope | undefined,
  ) {}

  lookup(name: string): Value | undefined {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      if (scope.vars.has(name)) return scope.vars.get(name);
    }
    return undefined;
  }

  extend(vars: ReadonlyMap<string, Value>): Scope {
    return new Scope(vars, this);
  }
}

/** Services lower layers cannot build themselves; the server wires them in. */
export interface EvalServices {
  readonly forms: FormRegistry;
  readonly access: AccessPolicy;
  /** Create handlers of the native collections (collections, databases, keys, and those other areas add). */
  readonly natives: NativeCollectionHandlers;
  /** BCrypt hash of a password (credentials). */
  hashPassword(password: string): Promise<string>;
  /** True when `password` matches the BCrypt `hash`. */
  verifyPassword(password: string, hash: string): Promise<boolean>;
  /** A new secret for the key or token record `id` in `database`. */
  issueSecret(kind: 'key' | 'token', database: DatabaseId, id: string): Promise<IssuedSecret>;
  /** Reads a set value (Match, Union, …) as an ordered set, access-checked as Paginate reads it. */
  readonly sets: SetReading;
  /** How long a function whose cost outgrows its input (a regular expression, a case mapping) may run (FN-STR-033). */
  readonly functionTimeLimitMs: number;
  /** How long a query may run (`--query-time-limit`); a request's `x-query-timeout` may ask for less (LIMIT-TIME-001). */
  readonly queryTimeLimitMs: number;
}

export interface SetReading {
  read(ctx: EvalContext, set: Value, position: Position, atTs?: bigint): Promise<OrderedSet>;
}

export type Evaluate = (ctx: EvalContext, expr: Expr) => Promise<Value>;
/** Evaluation that answers at once when nothing has to wait (see `evaluateNow` in evaluator.ts). */
export type EvaluateNow = (ctx: EvalContext, expr: Expr) => Value | Promise<Value>;

/** The evaluator's two entry points, passed in so that this layer does not import the evaluator. */
export interface Evaluator {
  readonly evaluate: Evaluate;
  readonly evaluateNow: EvaluateNow;
}

/**
 * The records a request created, so the endpoint can answer 201 when its result is one of them. A request creates
 * few records and lives briefly: a list made on the first create, not a WeakSet for every request.
 */
export class CreatedRecords {
  private records: object[] | undefined;

  add(record: object): void {
    this.records ??= [];
    this.records.push(record);
  }

  has(value: object): boolean {
    return this.records?.includes(value) ?? false;
  }
}

export class EvalContext {
  constructor(
    readonly txn: Transaction,
    /** The database refs are relative to. */
    readonly database: DatabaseId,
    readonly identity: Identity,
    readonly apiVersion: ApiVersion,
    readonly services: EvalServices,
    readonly scope: Scope,
    private readonly evaluator: Evaluator,
    /** The request's deadline and memory watch (shared by every context of one request). */
    readonly limits: QueryLimits,
    /** Documents this request created, so the endpoint can answer 201 for a created top-level result. */
    readonly created: CreatedRecords = new CreatedRecords(),
    /**
     * The earlier time documents and sets are read at inside `At` (undefined: the transaction's own snapshot).
     * Writes are refused while it is set, as the real service refuses writing outside the snapshot time.
     */
    readonly readTs?: bigint,
  ) {}

  eval(expr: Expr): Promise<Value> {
    return this.evaluator.evaluate(this, expr);
  }

  /** The value at once when nothing has to wait, else its promise; failures may be thrown at once. */
  evalNow(expr: Expr): Value | Promise<Value> {
    return this.evaluator.evaluateNow(this, expr);
  }

  withScope(scope: Scope): EvalContext {
    return this.derive(this.identity, scope, this.readTs);
  }

  /** The same evaluation acting as another identity (role predicates run with read rights of their own). */
  withIdentity(identity: Identity): EvalContext {
    return this.derive(identity, this.scope, this.readTs);
  }

  /** The same evaluation reading at `readTs` (undefined: back at the transaction's snapshot). */
  readingAt(readTs: bigint | undefined): EvalContext {
    if (readTs === this.readTs) return this;
    return this.derive(this.identity, this.scope, readTs);
  }

  /** The same request's evaluation (transaction, database, limits, created records) with what may differ. */
  private derive(identity: Identity, scope: Scope, readTs: bigint | undefined): EvalContext {
    return new EvalContext(
      this.txn,
      this.database,
      identity,
      this.apiVersion,
      this.services,
      scope,
      this.evaluator,
      this.limits,
      this.created,
      readTs,
    );
  }

  withBindings(vars: ReadonlyMap<string, Value>): EvalContext {
    return this.withScope(this.scope.extend(vars));
  }
}
