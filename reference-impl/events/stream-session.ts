/**
 * One open event stream: a `status` event first, then the events between the start and the moment the stream
 * opened (at most 128, else `stream_replay_volume_exceeded`), then live events as transactions commit, each
 * transaction whole, whatever its size. Idle
 * streams get a `status` event every `statusIntervalMs`. An error event ends the response; a deleted source
 * collection or database only silences it (DEC-039).
 */
import { failpoint } from '../failpoints.js';
import { positionAfterTransaction, type EventPosition } from '../event-source/cursor.js';
import type { ResponseStream } from '../transport/exchange.js';
import { accountLimitMessage } from './account-operations.js';
import { PublishedTransactions, type HistoryTransaction } from './event-history.js';
import { addCost, operationsOf, renderStats, zeroCost } from './event-stats.js';
import { EVENTS_PER_RUN_LIMIT, type EventService, type StartResolution } from './event-service.js';
import { EVENT_SEPARATOR, stringifyEvent } from './event-text.js';
import type { WireBatch } from './shared-processing.js';
import { errorEventJson, type OpenedSource, type ReadCheck, type SourceConsumer, type SourceItem } from './source-consumer.js';

/** Checks the endpoint layer answers for the stream, at each committed transaction. */
export interface StreamGuards {
  /**
   * True when the secret that opened the stream was revoked or its privileges changed (→ `permission_loss`):
   * after `transaction`, or, without one, now.
   */
  authorizationLost(transaction: HistoryTransaction | undefined): boolean;
  /** False once the source's database (or an ancestor) is deleted. */
  databaseLive(atTs: bigint): boolean;
}

/**
 * A transaction's events as they go out: their lines in one buffer, then the error that ends them, if any, made once
 * for every stream that shares it. Each event is written out as it is made, so its tagged copy of the document is
 * garbage at once (DEC-077).
 */
async function wireBatch(consumer: SourceConsumer, transaction: HistoryTransaction, after: EventPosition): Promise<WireBatch> {
  let text = '';
  let error: Record<string, unknown> | undefined;
  const cost = await consumer.visit(transaction, after, (item) => {
    if (item.kind === 'error') error ??= item.json;
    else if (error === undefined) text += stringifyEvent(item.json) + EVENT_SEPARATOR;
  });
  return { cost, bytes: Buffer.from(text, 'utf8'), error };
}

export class StreamSession {
  private readonly consumer: SourceConsumer;
  private transactions: PublishedTransactions | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** When the last event was written (performance.now()); the idle timer measures from here. */
  private lastSentAt = 0;
  private live = false;
  private stopped = false;
  /** The source collection or database was deleted: no more events, the response stays open. */
  private silenced = false;

  constructor(
    private readonly service: EventService,
    private readonly source: OpenedSource,
    private readonly start: StartResolution,
    private readonly mayRead: ReadCheck,
    private readonly sink: ResponseStream,
    private readonly guards: StreamGuards,
    /** Called once when the stream ends, however it ends (gives back its place under the per-secret limit). */
    private readonly onStop: () => void = () => {},
  ) {
    this.consumer = service.consumer(source, mayRead);
  }

  /**
   * Sends the first events; live events follow as transactions commit. Resolves once the replay is written. A fault
   * while replaying ends the stream with an `internal_error` event, as one while streaming live does (see `drain`):
   * the stream must not stay open with nothing coming, holding its place under the per-secret limit.
   */
  async run(): Promise<void> {
    this.sink.onClose(() => this.stop());
    try {
      await this.replay();
    } catch {
      this.fail(internalErrorEvent());
    }
  }

  // Implements: STREAM-CLOSE-005, STREAM-REPLAY-001, STREAM-REPLAY-002, STREAM-REPLAY-003, STREAM-REPLAY-004
  // Implements: STREAM-REPLAY-005, STREAM-STATUS-001, STREAM-STATUS-003, LIMIT-EVENTS-002, LIMIT-EVENTS-005
  private async replay(): Promise<void> {
    if (!this.start.ok) {
      this.sendStatus(positionAfterTransaction(this.start.startTs));
      this.fail(this.service.retentionErrorEvent(this.start.startTs));
      return;
    }
    const snapshot = this.service.history.publishedTs;
    // Followed from the same tick as taking the snapshot: every later published commit waits until the replay is sent.
    const transactions = new PublishedTransactions(
      this.service.history,
      snapshot,
      async (transaction) => {
        await this.handle(transaction);
        const writable = this.sink.whenWritable();
        if (writable !== undefined) await writable;
      },
      () => this.fail(internalErrorEvent()),
    );
    this.transactions = transactions;
    this.sendStatus(this.start.position);
    if (this.guards.authorizationLost(undefined)) return this.fail(this.service.permissionLossEvent());
    if (this.overLimit()) return;
    if (await this.replayTooLong(this.start.position, snapshot)) {
      if (!this.stopped)
        this.fail(
          errorEventJson(
            'stream_replay_volume_exceeded',
            'Too many events to replay. Recreate the stream and try again.',
            this.consumer.takePending(),
          ),
        );
      return;
    }
    if (this.stopped) return;
    let failed = false;
    // Not async: what it waits for is handed back, so that no frame of it holds the event while the client reads.
    const sendReplayed = (item: SourceItem): Promise<void> | undefined => {
      if (this.stopped || failed) return undefined;
      if (item.kind === 'error') {
        failed = true;
        this.fail(item.json);
        return undefined;
      }
      this.send(item.json);
      // A replay of large documents is sent as fast as the client reads it, not all at once (DEC-072).
      return this.sink.whenWritable();
    };
    for (const transaction of this.service.history.transactionsAfter(this.source.database, this.start.position, snapshot)) {
      const cost = await this.consumer.visit(transaction, this.start.position, sendReplayed);
      this.service.accounts.add(this.source.database, operationsOf(cost));
      if (this.stopped || failed) return;
    }
    if (this.overLimit()) return;
    this.live = true;
    this.armTimer();
    await transactions.resume();
  }

  // Implements: LIMIT-EVENTS-002, LIMIT-EVENTS-004, LIMIT-EVENTS-005
  /**
   * Whether the replay from `after` up to `snapshot` holds more than 128 events, found before any is sent, as the
   * error must come instead of them. It is counted by a consumer of its own that drops each event once counted; the
   * events are then made again one at a time as they are sent. Holding every event of a replay until the count was
   * known (a tagged copy of each document) let a few streams replaying large documents take the process past its
   * heap (DEC-077). When the replay is too long, what counting cost is charged and carried into the error event's
   * stats; otherwise the second pass charges it. An error event within the first 128 ends the count: the replay
   * then sends the events before it, and it.
   */
  private async replayTooLong(after: EventPosition, snapshot: bigint): Promise<boolean> {
    const counter = this.service.consumer(this.source, this.mayRead);
    const cost = zeroCost();
    let events = 0;
    let failed = false;
    const count = (item: SourceItem): void => {
      if (item.kind === 'event') events++;
      else failed = true;
    };
    for (const transaction of this.service.history.transactionsAfter(this.source.database, after, snapshot)) {
      addCost(cost, await counter.visit(transaction, after, count));
      if (this.stopped) return false;
      if (events > EVENTS_PER_RUN_LIMIT) {
        this.service.accounts.add(this.source.database, operationsOf(cost));
        this.consumer.addPending(counter.takePending());
        return true;
      }
      if (failed) return false;
    }
    return false;
  }

  // Implements: STREAM-DELETE-001, STREAM-DELETE-002, STREAM-LIVE-001, STREAM-CLOSE-001, STREAM-CLOSE-002
  // Implements: STREAM-CLOSE-003, LIMIT-EVENTS-008, LIMIT-OPS-001
  private async handle(transaction: HistoryTransaction): Promise<void> {
    if (this.silenced) return;
    const deletesDatabase = transaction.nativeWrites.some((w) => w.collection === 'databases' && w.action === 'delete');
    const databaseGone = deletesDatabase && !this.guards.databaseLive(transaction.ts);
    if (databaseGone || this.deletesSourceCollection(transaction)) {
      // The self-check's faults of these names end the stream instead; asked while the deleting request is handled,
      // whose failpoints are those of the fault's run.
      if (databaseGone ? failpoint('STREAM-ENDS-ON-DATABASE-DELETE') : failpoint('STREAM-ENDS-ON-COLLECTION-DELETE')) {
        this.stop();
        this.sink.end();
      }
      this.silenced = true;
      return;
    }
    if (this.guards.authorizationLost(transaction)) {
      this.fail(this.service.permissionLossEvent());
      return;
    }
    if (transaction.database !== this.source.database) return;
    const { cost, bytes, error } = await this.processLive(transaction);
    this.service.accounts.add(this.source.database, operationsOf(cost));
    if (this.stopped) return;
    this.sendBytes(bytes);
    if (error !== undefined) return this.fail(error);
    this.overLimit();
  }

  /** A live transaction's events: shared with the source's other streams unless this one carries its own cost. */
  private async processLive(transaction: HistoryTransaction): Promise<WireBatch> {
    const after = positionAfterTransaction(transaction.ts - 1n);
    if (this.consumer.hasPending) return wireBatch(this.consumer, transaction, after);
    const shared = await this.service.shared.get(transaction, this.source.key, async () => {
      const fresh = this.service.consumer(this.source, this.mayRead);
      const batch = await wireBatch(fresh, transaction, after);
      return { ...batch, leftover: fresh.takePending() };
    });
    this.consumer.addPending(shared.leftover);
    return shared;
  }

  private deletesSourceCollection(transaction: HistoryTransaction): boolean {
    return (
      transaction.database === this.source.database &&
      transaction.nativeWrites.some((w) => w.collection === 'collections' && w.id === this.source.plan.collection && w.action === 'delete')
    );
  }

  // Implements: LIMIT-OPS-001
  /** DEC-016: once the source's account is past the operations limit the stream ends with `limit_exceeded`. */
  private overLimit(): boolean {
    const { accounts } = this.service;
    const limit = accounts.limit;
    if (limit === undefined || !accounts.exceeded(this.source.database)) return false;
    this.fail(errorEventJson('limit_exceeded', accountLimitMessage(limit), { ...zeroCost(), computeOps: 1 }));
    return true;
  }

  // Implements: STREAM-STATUS-002
  private sendStatus(position: EventPosition): void {
    const cost = addCost({ ...zeroCost(), computeOps: 1 }, this.consumer.takePending());
    this.send({ type: 'status', txn_ts: position.txnTs, cursor: this.consumer.cursorOf(position), stats: renderStats(cost) });
  }

  // Implements: STREAM-FRAME-001
  private send(event: Record<string, unknown>): void {
    this.sendBytes(stringifyEvent(event) + EVENT_SEPARATOR);
  }

  // Implements: STREAM-FRAME-003
  private sendBytes(data: string | Buffer): void {
    if (this.stopped || this.sink.closed || data.length === 0) return;
    this.sink.write(data);
    this.lastSentAt = performance.now();
    // An armed timer re-checks the idle time when it fires, so a busy stream never re-arms per event.
    if (this.timer === undefined) this.armTimer();
  }

  // Implements: STREAM-CLOSE-004, LIMIT-EVENTS-003
  private fail(event: Record<string, unknown>): void {
    this.send(event);
    this.stop();
    this.sink.end();
  }

  private armTimer(delayMs: number = this.service.statusIntervalMs): void {
    if (this.stopped || !this.live) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.periodicStatus(), Math.max(1, delayMs));
    this.timer.unref();
  }

  // Implements: STREAM-LIVE-003
  /** After `statusIntervalMs` without an event, and only when every committed transaction is handled. */
  private periodicStatus(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const idleMs = performance.now() - this.lastSentAt;
    if (idleMs < this.service.statusIntervalMs) {
      this.armTimer(this.service.statusIntervalMs - idleMs);
      return;
    }
    if (this.transactions?.busy) {
      this.armTimer();
      return;
    }
    this.sendStatus(positionAfterTransaction(this.service.history.publishedTs));
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onStop();
    this.transactions?.close();
    if (this.timer) clearTimeout(this.timer);
  }
}

function internalErrorEvent(): Record<string, unknown> {
  return errorEventJson('internal_error', 'An internal error occurred while processing the event source.', {
    ...zeroCost(),
    computeOps: 1,
  });
}
