// A bare Store with hand-made commits for the event modules' unit tests: user documents, collection records
// (with `history_days`), updates and deletes, at times the test chooses or one microsecond apart.
import { ROOT_DATABASE, Store, userCollectionKey, type DatabaseId, type DocumentWrite } from '../../../../reference-impl/store/store.js';
import type { ObjectValue, Value } from '../../../../reference-impl/values/value.js';

export type FixtureWrite =
  | { readonly put: string; readonly id: string; readonly data: Record<string, Value> }
  | { readonly remove: string; readonly id: string }
  | { readonly collection: string; readonly historyDays?: bigint };

export class StoreFixture {
  readonly store = new Store();
  /** Commit times start a minute ago, so that retention checks against the wall clock pass. */
  private ts = BigInt(Date.now()) * 1000n - 60_000_000n;

  /** Commits one transaction; answers its time. */
  commit(writes: readonly FixtureWrite[], options: { ts?: bigint; database?: DatabaseId } = {}): bigint {
    const ts = options.ts ?? ++this.ts;
    if (ts > this.ts) this.ts = ts;
    const database = options.database ?? ROOT_DATABASE;
    const documentWrites: DocumentWrite[] = writes.map((write) => {
      const [collection, id, fields, remove] =
        'put' in write
          ? [userCollectionKey(write.put), write.id, { data: write.data as ObjectValue } as ObjectValue, false]
          : 'remove' in write
            ? [userCollectionKey(write.remove), write.id, {} as ObjectValue, true]
            : [
                'collections',
                write.collection,
                { name: write.collection, ...(write.historyDays === undefined ? {} : { history_days: write.historyDays }) } as ObjectValue,
                false,
              ];
      const before = this.store.getDocument(database, collection, id, this.store.lastCommitTs);
      const action = remove ? 'delete' : before ? 'update' : 'create';
      return { collection, id, action, before, after: { ts, action, fields, hidden: {} } };
    });
    this.store.commit([{ ts, database, writes: documentWrites }]);
    return ts;
  }
}
