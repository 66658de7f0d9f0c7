import { describe, expect, it } from 'vitest';
import { AccountOperations } from '../../../../reference-impl/events/account-operations.js';
import { ROOT_DATABASE, Store } from '../../../../reference-impl/store/store.js';

describe('AccountOperations', () => {
  it('counts per top-level database, its descendants included, and is exceeded only past the limit', () => {
    const store = new Store();
    const top = store.allocateDatabase(ROOT_DATABASE);
    const child = store.allocateDatabase(top);
    const grandchild = store.allocateDatabase(child);
    const other = store.allocateDatabase(ROOT_DATABASE);
    const accounts = new AccountOperations(store, 10);
    expect([accounts.accountOf(grandchild), accounts.accountOf(top), accounts.accountOf(ROOT_DATABASE)]).toEqual([top, top, ROOT_DATABASE]);
    accounts.add(grandchild, 6);
    accounts.add(child, 4);
    expect(accounts.usedBy(top)).toBe(10);
    expect(accounts.exceeded(grandchild)).toBe(false);
    accounts.add(top, 1);
    expect(accounts.exceeded(child)).toBe(true);
    expect(accounts.exceeded(other)).toBe(false);
    expect(accounts.exceeded(ROOT_DATABASE)).toBe(false);
  });

  it('counts nothing without a limit', () => {
    const accounts = new AccountOperations(new Store(), undefined);
    accounts.add(ROOT_DATABASE, 1_000_000);
    expect([accounts.usedBy(ROOT_DATABASE), accounts.exceeded(ROOT_DATABASE)]).toEqual([0, false]);
  });
});
