/**
 * One open v4 stream (`POST /stream`, DEC-064): a `start` event stamped with the latest published commit, then an
 * event line for every later write the target shows and the reader may read, as transactions are published. There
 * is no replay and no idle event. When the secret is revoked or its rights change, one `permission denied` error
 * event ends the response (fauna/faunadb StreamRenderContext, StreamSpec).
 */
import { positionAfterTransaction } from '../event-source/cursor.js';
import { failpoint } from '../failpoints.js';
import type { ApiVersion } from '../codec/api-version.js';
import { renderValue } from '../codec/v4-value-renderer.js';
import type { ResponseStream } from '../transport/exchange.js';
import { PublishedTransactions, type EventHistory, type HistoryTransaction } from './event-history.js';
import type { ReadCheck } from './source-consumer.js';
import { EVENT_SEPARATOR } from './event-text.js';
import type { StreamGuards } from './stream-session.js';
import type { V4StreamTarget } from './v4-stream-events.js';

export const AUTHORIZATION_LOST = 'Authorization lost during stream evaluation.';

export class V4StreamSession {
  private transactions: PublishedTransactions | undefined;
  private stopped = false;

  constructor(
    private readonly history: EventHistory,
    private readonly target: V4StreamTarget,
    private readonly mayRead: ReadCheck,
    private readonly sink: ResponseStream,
    private readonly guards: Pick<StreamGuards, 'authorizationLost'>,
    private readonly apiVersion: ApiVersion,
    /** Called once when the stream ends, however it ends. */
    private readonly onStop: () => void,
  ) {}

  // Implements: V4STREAM-START-001, V4STREAM-START-002
  /** Sends `start`; events follow as transactions are published (and, with `replayLast`, the database's last one before). */
  run(replayLast = false): void {
    this.sink.onClose(() => this.stop());
    const startTs = this.history.publishedTs;
    // Followed from the same tick as the start time is read: every later commit is handled, none is missed.
    this.transactions = new PublishedTransactions(
      this.history,
      startTs,
      (transaction) => this.handle(transaction),
      () => this.fail(0n, 'internal server error', 'An internal error occurred while processing the stream.'),
    );
    this.line('start', startTs, startTs.toString());
    const earlier = replayLast ? [...this.history.transactionsAfter(this.target.database, positionAfterTransaction(0n), startTs)] : [];
    void this.transactions.resume(earlier.slice(-1));
  }

  // Implements: V4STREAM-ACCESS-001, V4STREAM-ACCESS-002
  private async handle(transaction: HistoryTransaction): Promise<void> {
    if (this.guards.authorizationLost(transaction)) return this.fail(transaction.ts, 'permission denied', AUTHORIZATION_LOST);
    if (transaction.database !== this.target.database) return;
    // The self-check's fault V4STREAM-READ-RIGHTS-IGNORED; asked before any wait, while the writing request is handled.
    const rightsIgnored = failpoint('V4STREAM-READ-RIGHTS-IGNORED');
    let text = '';
    for (const write of transaction.writes) {
      for (const event of this.target.eventsOf(write, transaction.ts)) {
        // Events of documents the reader may not read are left out, as the real service filters them.
        if (!rightsIgnored && !(await this.mayRead(event.collection, event.id, event.readVersion, transaction.ts))) continue;
        text += eventLine(event.type, transaction.ts, renderValue(event.event, { apiVersion: this.apiVersion }));
      }
    }
    if (text !== '' && !this.stopped && !this.sink.closed) this.sink.write(text);
  }

  // Implements: V4STREAM-ACCESS-002
  /** One error event, then the response ends. */
  private fail(txn: bigint, code: string, description: string): void {
    this.line('error', txn, JSON.stringify({ code, description }));
    this.stop();
    this.sink.end();
  }

  private line(type: string, txn: bigint, event: string): void {
    if (!this.stopped && !this.sink.closed) this.sink.write(eventLine(type, txn, event));
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.transactions?.close();
    this.onStop();
  }
}

/** `{"type", "txn", "event"}` in that order, `\r\n` after it. */
function eventLine(type: string, txn: bigint, event: string): string {
  return `{"type":${JSON.stringify(type)},"txn":${txn},"event":${event}}${EVENT_SEPARATOR}`;
}
