/**
 * The account operations limit (SD §Errors: "operations limit of the account or plan exceeded"; DEC-016). The
 * reference server is one host of many accounts: each top-level database (a child of the root) with everything
 * in it is one account, and the root database is an account of its own. Operations consumed by event streams and
 * feed polls are counted per account for the life of the process; once an account is past the limit, every stream of
 * it ends with `limit_exceeded` at its next transaction, new streams end right after their first status event, and
 * feed polls are answered 429 `limit_exceeded`.
 */
import { ROOT_DATABASE, type DatabaseId, type Store } from '../store/store.js';

// Implements: LIMIT-OPS-001, LIMIT-OPS-004
export class AccountOperations {
  private readonly used = new Map<DatabaseId, number>();

  constructor(
    private readonly store: Store,
    /** Unlimited when undefined. */
    readonly limit: number | undefined,
  ) {}

  /** The top-level database holding `database` (the root for the root). */
  accountOf(database: DatabaseId): DatabaseId {
    let current = database;
    for (;;) {
      const parent = this.store.database(current)?.parent;
      if (parent === undefined || parent === ROOT_DATABASE) return current;
      current = parent;
    }
  }

  add(database: DatabaseId, operations: number): void {
    if (this.limit === undefined || operations === 0) return;
    const account = this.accountOf(database);
    this.used.set(account, (this.used.get(account) ?? 0) + operations);
  }

  usedBy(database: DatabaseId): number {
    return this.used.get(this.accountOf(database)) ?? 0;
  }

  exceeded(database: DatabaseId): boolean {
    return this.limit !== undefined && this.usedBy(database) > this.limit;
  }
}

/** The text of the error (event or 429 answer) past the limit. */
export function accountLimitMessage(limit: number | undefined): string {
  return `Account operations limit exceeded (${limit} operations).`;
}
