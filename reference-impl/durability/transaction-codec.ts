/**
 * One committed transaction ↔ one commit-log payload. A transaction may write into several databases; all
 * of its commit records share one timestamp and travel in one frame, so recovery applies them together or
 * not at all. `before` is not stored: replay reads it back from the store, which holds exactly the state
 * the transaction saw.
 */
import type { CommitRecord, DocumentVersion, HiddenFields, HistoryEdit, WriteAction } from '../store/store.js';
import { CorruptValueError, decodeObject, encodeObject, type EncodedValue } from './value-codec.js';

/** `[collection, id, action, fields, hidden]` */
type EncodedWrite = [string, string, WriteAction, Record<string, EncodedValue>, Record<string, EncodedValue>];

/**
 * A history edit (DEC-068): `['insert', collection, id, ts, action, fields, hidden]` or `['remove', collection, id,
 * ts, deleted]`, the times as decimal text.
 */
type EncodedHistoryEdit =
  | ['insert', string, string, string, WriteAction, Record<string, EncodedValue>, Record<string, EncodedValue>]
  | ['remove', string, string, string, boolean];

export interface EncodedTransaction {
  /** Commit timestamp, microseconds, decimal text. */
  ts: string;
  /** `history` only in records of history edits (logs written before DEC-068 have none). */
  records: Array<{ db: string; writes: EncodedWrite[]; history?: EncodedHistoryEdit[] }>;
}

function encodeHistoryEdit(edit: HistoryEdit): EncodedHistoryEdit {
  if (edit.kind === 'remove') return ['remove', edit.collection, edit.id, edit.ts.toString(), edit.deleted];
  const { version } = edit;
  return [
    'insert',
    edit.collection,
    edit.id,
    version.ts.toString(),
    version.action,
    encodeObject(version.fields),
    encodeObject({ ...version.hidden }),
  ];
}

function decodeHistoryEdit(encoded: EncodedHistoryEdit): HistoryEdit {
  if (!Array.isArray(encoded)) throw new CorruptValueError('history edit');
  if (encoded[0] === 'remove') {
    const [, collection, id, ts, deleted] = encoded;
    return { kind: 'remove', collection, id, ts: BigInt(ts), deleted: deleted === true };
  }
  if (encoded[0] !== 'insert') throw new CorruptValueError('history edit');
  const [, collection, id, ts, action, fields, hidden] = encoded;
  if (!ACTIONS.has(action)) throw new CorruptValueError('action');
  return {
    kind: 'insert',
    collection,
    id,
    version: { ts: BigInt(ts), action, fields: decodeObject(fields), hidden: decodeObject(hidden) as HiddenFields },
  };
}

export function encodeTransaction(records: readonly CommitRecord[]): EncodedTransaction {
  const ts = records[0]?.ts ?? 0n;
  return {
    ts: ts.toString(),
    records: records.map((record) => ({
      db: record.database,
      writes: record.writes.map(
        (w): EncodedWrite => [w.collection, w.id, w.action, encodeObject(w.after.fields), encodeObject({ ...w.after.hidden })],
      ),
      ...(record.historyEdits === undefined ? {} : { history: record.historyEdits.map(encodeHistoryEdit) }),
    })),
  };
}

/** A stored transaction: what each database received, with versions but without `before`. */
export interface DecodedTransaction {
  readonly ts: bigint;
  readonly records: Array<{
    database: string;
    writes: Array<{ collection: string; id: string; after: DocumentVersion }>;
    historyEdits?: HistoryEdit[];
  }>;
}

const ACTIONS: ReadonlySet<string> = new Set(['create', 'update', 'delete']);

export function decodeTransaction(payload: unknown): DecodedTransaction {
  const encoded = payload as EncodedTransaction;
  if (typeof encoded !== 'object' || encoded === null || typeof encoded.ts !== 'string' || !Array.isArray(encoded.records)) {
    throw new CorruptValueError('transaction');
  }
  const ts = BigInt(encoded.ts);
  return {
    ts,
    records: encoded.records.map((record) => ({
      database: record.db,
      writes: record.writes.map(([collection, id, action, fields, hidden]) => {
        if (!ACTIONS.has(action)) throw new CorruptValueError('action');
        return { collection, id, after: { ts, action, fields: decodeObject(fields), hidden: decodeObject(hidden) as HiddenFields } };
      }),
      ...(record.history === undefined ? {} : { historyEdits: record.history.map(decodeHistoryEdit) }),
    })),
  };
}
