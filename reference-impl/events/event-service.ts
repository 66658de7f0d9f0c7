/**
 * Event sources over the history: issuing tokens, opening a token for a consumer, resolving where it starts,
 * and reading feed pages. Streams are in stream-session.ts. Errors a client caused before any event are
 * `EventRequestError`s (400 `invalid_request` on the wire).
 */
import { createHmac, randomBytes } from 'node:crypto';
import {
  compareEventPositions,
  decodeEventCursor,
  InvalidEventCursorError,
  positionAfterTransaction,
  type CursorBinding,
  type EventPosition,
} from '../event-source/cursor.js';
import { decodeEventSourceSpec, encodeEventSourceSpec, EventSourcePlan, type EventSourceSpec } from '../fql/runtime/event-source-plan.js';
import {
  type DecodedEventSourceToken,
  INVALID_EVENT_SOURCE_MESSAGE,
  InvalidEventSourceError,
  issueEventSourceToken,
  readEventSourceToken,
} from '../event-source/token.js';
import type { Identity } from '../auth/identity.js';
import { FqlError } from '../fql/fql-error.js';
import type { Interpreter } from '../fql/runtime/interpreter.js';
import { globalValue } from '../fql/runtime/stdlib.js';
import type { DatabaseId, Store } from '../store/store.js';
import type { Stats } from '../../schemas/types.js';
import { EventHistory, type WhenDurable } from './event-history.js';
import { stringifyEvent } from './event-text.js';
import { addCost, operationsOf, renderStats, zeroCost, type EventCost } from './event-stats.js';
import { DEFAULT_MIN_RETENTION_MICROS, longestRetentionMicros, nowMicros, retentionMessage, startBeyondRetention } from './retention.js';
import { type EventEndpoint, errorEventJson, SourceConsumer, type OpenedSource, type ReadCheck } from './source-consumer.js';
import { decodeEventSecret, encodeEventSecret, type EventSecret } from './event-secret.js';
import { failpoint } from '../failpoints.js';
import { storeResolver } from '../event-source/source-resolver.js';
import { AccountOperations } from './account-operations.js';
import { SharedProcessing } from './shared-processing.js';
import { StreamLimit } from './stream-limit.js';

// Implements: LIMIT-EVENTS-002, LIMIT-EVENTS-004, LIMIT-EVENTS-007, LIMIT-EVENTS-008
/**
 * More events than this to replay end a stream (SD "Limits"; LIMIT-EVENTS-002). A live transaction of any size is
 * delivered whole, on feeds and streams, as the real service delivers it (LIMIT-EVENTS-007, -008).
 */
export const EVENTS_PER_RUN_LIMIT = 128;
export const DEFAULT_STATUS_INTERVAL_MS = 300_000;
// Implements: FEED-PAGE-002
export const DEFAULT_PAGE_SIZE = 16;
export const MAX_PAGE_SIZE = 16_000;

export type AccountPlan = 'free' | 'pro' | 'enterprise';
export const ACCOUNT_PLANS: readonly AccountPlan[] = ['free', 'pro', 'enterprise'];

export interface EventServerOptions {
  /** Idle time after which a stream gets a `status` event (DEC-011); default 5 minutes. */
  readonly statusIntervalMs?: number;
  /** Operations an account's event streams and feed polls may consume (DEC-016); unlimited if unset. */
  readonly opsLimit?: number;
  /**
   * History every collection keeps beyond its `history_days`, all of it when that is 0 (DEC-020); default 15 minutes.
   * A short one lets a suite reach the retention error without waiting 15 minutes.
   */
  readonly minRetentionMs?: number;
  /** `free` refuses feeds with 403 (DEC-028); default `pro`. */
  readonly plan?: AccountPlan;
  /** Open streams one secret may hold at once (DEC-043); default `DEFAULT_MAX_STREAMS_PER_SECRET`. */
  readonly maxStreamsPerSecret?: number;
  /**
   * The server's persistent key (`--data-dir` keeps it): tokens and cursors are signed with a key derived from it,
   * so they stay valid across a restart. Without it, a random key per process.
   */
  readonly serverKey?: Uint8Array;
  /**
   * An FQL interpreter reading as of `ts` with the rights of `identity`: where the `where`, `map` and projections of
   * a source run for each event (the server wires it; without it a source cannot be opened).
   */
  readonly runtime?: (identity: Identity, ts: bigint) => Interpreter;
}

/** Separates the event signing key from other uses of the server key. */
const EVENT_KEY_LABEL = 'fauna-conformance/event-sources/v1';

export class EventRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventRequestError';
  }
}

/** A source that cannot be evaluated for its consumer, worded as the real service's endpoints word it. */
export function evaluationError(endpoint: EventEndpoint, message: string): EventRequestError {
  return new EventRequestError(`Error evaluating provided ${endpoint === 'feed' ? 'event source' : 'stream'}, ${message}`);
}

/** Where consumption starts, or the retention error to send instead. */
export type StartResolution = { readonly ok: true; readonly position: EventPosition } | { readonly ok: false; readonly startTs: bigint };

export interface StartRequest {
  readonly startTs?: bigint;
  readonly cursor?: string;
}

// Implements: FEED-PAGE-009
/**
 * Characters of event text past which a feed page ends early, with `has_next` true (DEC-072): the answer is one
 * string, and pages of `page_size` large documents would pass what a string can hold (~512 Mi characters).
 */
export const FEED_PAGE_MAX_CHARS = 16 * 1024 * 1024;

export interface FeedPage {
  /** Each event as its JSON text. */
  readonly events: string[];
  readonly cursor: string;
  readonly hasNext: boolean;
  readonly stats: Stats;
}

export class EventService {
  readonly history: EventHistory;
  // Implements: STREAM-LIVE-002
  /** Live-transaction results shared by streams of the same source (fan-out). */
  readonly shared = new SharedProcessing();
  private readonly key: Buffer;
  readonly statusIntervalMs: number;
  /** Event-stream operations per account, against the operations limit. */
  readonly accounts: AccountOperations;
  /** Open streams per secret, against their limit. */
  readonly streams: StreamLimit;
  /** The retention every collection has beyond its `history_days` (DEC-020). */
  readonly minRetentionMicros: bigint;
  private readonly runtime: ((identity: Identity, ts: bigint) => Interpreter) | undefined;
  private readonly firstTokens = new Map<string, string>();

  constructor(
    readonly store: Store,
    options: EventServerOptions = {},
    /** With a commit log: resolves once the commits so far are on disk; their events are published only then. */
    whenDurable?: WhenDurable,
  ) {
    this.minRetentionMicros = options.minRetentionMs === undefined ? DEFAULT_MIN_RETENTION_MICROS : BigInt(options.minRetentionMs) * 1000n;
    this.history = new EventHistory(
      store,
      { retentionMicros: (database) => longestRetentionMicros(store, database, this.minRetentionMicros), nowMicros },
      whenDurable,
    );
    this.key = options.serverKey === undefined ? randomBytes(32) : createHmac('sha256', options.serverKey).update(EVENT_KEY_LABEL).digest();
    this.statusIntervalMs = options.statusIntervalMs ?? DEFAULT_STATUS_INTERVAL_MS;
    this.accounts = new AccountOperations(store, options.opsLimit);
    this.streams = new StreamLimit(options.maxStreamsPerSecret);
    this.runtime = options.runtime;
  }

  // Implements: ESRC-TOKEN-004
  binding(database: DatabaseId, source?: OpenedSource): CursorBinding {
    // The self-check's fault ESRC-CURSOR-BOUND-TO-TOKEN signs a source's cursors for the one token they were read with.
    if (source !== undefined && failpoint('ESRC-CURSOR-BOUND-TO-TOKEN'))
      return { database, key: createHmac('sha256', this.key).update(`${source.key}\u0000${source.createdAt}`).digest() };
    return { database, key: this.key };
  }

  /** A token for the source `spec`, made by `creator` at `createdAt`. */
  issueToken(creator: EventSecret, spec: EventSourceSpec, createdAt: bigint): string {
    const source = JSON.stringify(encodeEventSourceSpec(spec));
    const token = issueEventSourceToken(
      { database: creator.identity.database, source, createdAtMicros: createdAt, creator: encodeEventSecret(creator) },
      this.key,
    );
    if (!failpoint('ESRC-TOKEN-PER-QUERY')) return token;
    // The self-check's fault ESRC-TOKEN-PER-QUERY answers a query's first token again (kept only for its requests).
    const key = `${creator.identity.database}\u0000${source}`;
    if (!this.firstTokens.has(key)) this.firstTokens.set(key, token);
    return this.firstTokens.get(key)!;
  }

  // Implements: ESRC-TOKEN-005, ESRC-TOKEN-006, EVT-ACCESS-001, EVT-ACCESS-005
  /**
   * Reads a token for `consumer`, a secret acting in the source's database. The events are filtered with the
   * consumer's rights, as the real service does (DEC-036). The source is planned against the current schema.
   */
  open(token: string, consumer: EventSecret, endpoint: EventEndpoint): OpenedSource {
    const database = consumer.identity.database;
    let decoded: DecodedEventSourceToken;
    try {
      decoded = readEventSourceToken(token, this.key);
    } catch (error) {
      // The self-check's fault ESRC-BAD-TOKEN-CRASH lets the decoder's error through: a 500.
      if (error instanceof InvalidEventSourceError && !failpoint('ESRC-BAD-TOKEN-CRASH'))
        throw new EventRequestError(`Invalid request body: ${error.message}`);
      throw error;
    }
    const creator = decoded.creator === undefined ? undefined : decodeEventSecret(decoded.creator);
    if (creator === undefined || creator.identity.database !== decoded.database)
      throw new EventRequestError(`Invalid request body: ${INVALID_EVENT_SOURCE_MESSAGE}`);
    if (decoded.database !== database) {
      throw evaluationError(endpoint, 'the event source belongs to another database.');
    }
    const runtime = this.runtime;
    if (runtime === undefined) throw new Error('the event service has no FQL runtime');
    // The SD's reading, the creator's rights, is kept only as the self-check's fault EVENTS-FILTERED-BY-CREATOR: it
    // shows a consumer documents its own roles may not read.
    const rights = failpoint('EVENTS-FILTERED-BY-CREATOR') ? creator : consumer;
    let plan: EventSourcePlan;
    try {
      const probe = runtime(rights.identity, this.store.lastCommitTs);
      plan = new EventSourcePlan(decodeEventSourceSpec(JSON.parse(decoded.source), (name) => globalValue(probe, name)));
    } catch (error) {
      if (error instanceof FqlError || error instanceof SyntaxError)
        throw new EventRequestError(`Invalid request body: ${INVALID_EVENT_SOURCE_MESSAGE}`);
      throw error;
    }
    // The source's collection must still be there (a deleted one cannot be read).
    if (!storeResolver(this.store, database, this.store.lastCommitTs).collection(plan.collection).exists) {
      throw evaluationError(endpoint, `Collection \`${plan.collection}\` does not exist.`);
    }
    return {
      database,
      endpoint,
      plan,
      runtimeAt: (ts) => runtime(rights.identity, ts),
      createdAt: decoded.createdAtMicros,
      creator,
      consumer,
      rights,
      key: `${database}\u0000${decoded.source}\u0000${encodeEventSecret(rights)}`,
    };
  }

  // Implements: ESRC-TOKEN-003, ESRC-TOKEN-004, EVT-RETAIN-001, EVT-RETAIN-002, EVT-RETAIN-004, EVT-RETAIN-005
  // Implements: FEED-REQ-003, FEED-REQ-005, FEED-REQ-009, FEED-START-001, FEED-START-002, FEED-START-003
  // Implements: STREAM-REQ-003, STREAM-REQ-005, STREAM-REQ-006, STREAM-REPLAY-002, STREAM-REPLAY-003
  /**
   * DEC-029, as the real service: a stream refuses a `start_ts` or `cursor` before the source's creation (400) before it
   * looks at retention (fauna/faunadb `StreamEndpoint.scala#L59-L63`); a feed takes any start, and one older than the
   * retention window gets the retention error event.
   */
  resolveStart(source: OpenedSource, request: StartRequest): StartResolution {
    if (request.startTs !== undefined && request.cursor !== undefined) {
      throw new EventRequestError('Invalid request body: can not provide both `start_ts` and `cursor`.');
    }
    const stream = source.endpoint === 'stream';
    const beyondRetention = (ts: bigint) =>
      startBeyondRetention(this.store, source.database, source.plan.collection, ts, this.minRetentionMicros);
    let position: EventPosition;
    // The failpoints below are the self-check's faults of the same names: starts a server could plausibly get wrong.
    if (request.cursor !== undefined) {
      try {
        position = decodeEventCursor(request.cursor, this.binding(source.database, source));
        if (stream ? failpoint('STREAM-CURSOR-INCLUSIVE') : failpoint('FEED-CURSOR-INCLUSIVE'))
          position = { txnTs: position.txnTs, ordinal: position.ordinal - 1 };
      } catch (error) {
        if (!(error instanceof InvalidEventCursorError)) throw error;
        if (!stream || !failpoint('STREAM-UNKNOWN-CURSOR-IGNORED')) throw new EventRequestError(`Invalid request body: ${error.message}`);
        position = positionAfterTransaction(source.createdAt);
      }
    } else if (request.startTs === undefined && (stream ? failpoint('STREAM-NO-REPLAY') : failpoint('FEED-START-AT-REQUEST'))) {
      position = positionAfterTransaction(this.history.publishedTs);
    } else if (request.startTs !== undefined && (stream ? failpoint('STREAM-START-TS-INCLUSIVE') : failpoint('FEED-START-TS-INCLUSIVE'))) {
      position = positionAfterTransaction(request.startTs - 1n);
    } else {
      position = positionAfterTransaction(request.startTs ?? source.createdAt);
    }
    if (
      position.txnTs < source.createdAt &&
      request.startTs !== undefined &&
      !beyondRetention(position.txnTs) &&
      (stream ? failpoint('STREAM-START-TS-CLAMPED') : failpoint('FEED-START-TS-CLAMPED'))
    )
      position = positionAfterTransaction(source.createdAt);
    if (position.txnTs < source.createdAt && (stream || failpoint('FEED-START-BEFORE-CREATION-REFUSED'))) {
      throw new EventRequestError('Invalid stream start time: Stream start time can not be before the stream create time.');
    }
    if (!stream && request.startTs !== undefined && failpoint('EVT-RETENTION-UNITS')) return { ok: false, startTs: position.txnTs };
    if (beyondRetention(position.txnTs) && (request.startTs !== undefined || !failpoint('EVT-RETENTION-ONLY-FOR-START-TS')))
      return { ok: false, startTs: position.txnTs };
    return { ok: true, position };
  }

  consumer(source: OpenedSource, mayRead: ReadCheck): SourceConsumer {
    return new SourceConsumer(source, mayRead, this.binding(source.database, source));
  }

  /** The secret that opened a stream no longer authenticates or grants what it did: the event that ends the stream. */
  permissionLossEvent(): Record<string, unknown> {
    return errorEventJson('permission_loss', 'Stream authentication is no longer valid.', { ...zeroCost(), computeOps: 1 });
  }

  // Implements: EVT-RETAIN-001
  retentionErrorEvent(startTs: bigint): Record<string, unknown> {
    return errorEventJson('invalid_stream_start_time', retentionMessage(startTs), {
      readOps: 0,
      storageBytesRead: 0,
      computeOps: 1,
      processingTimeMs: 0,
    });
  }

  /**
   * One page of a feed: at most `pageSize` events after `start`; an error event ends the page. What it costs counts
   * against the account's operations limit (DEC-016).
   */
  async feedPage(source: OpenedSource, start: StartResolution, pageSize: number, mayRead: ReadCheck): Promise<FeedPage> {
    const cost = zeroCost();
    const page = await this.readPage(source, start, pageSize, mayRead, cost);
    this.accounts.add(source.database, operationsOf(cost));
    return page;
  }

  // Implements: FEED-CONTENT-001, FEED-CONTENT-002, FEED-CONTENT-003, FEED-PAGE-001, FEED-PAGE-004, FEED-PAGE-005
  // Implements: FEED-PAGE-006, FEED-PAGE-007, FEED-PAGE-008, FEED-PAGE-009, FEED-ORDER-001, FEED-START-001
  // Implements: FEED-START-002, FEED-START-003, FEED-START-004, LIMIT-EVENTS-005, LIMIT-EVENTS-007
  private async readPage(
    source: OpenedSource,
    start: StartResolution,
    pageSize: number,
    mayRead: ReadCheck,
    cost: EventCost,
  ): Promise<FeedPage> {
    const consumer = this.consumer(source, mayRead);
    if (!start.ok) {
      const event = this.retentionErrorEvent(start.startTs);
      return {
        events: [stringifyEvent(event)],
        cursor: consumer.cursorOf(positionAfterTransaction(start.startTs)),
        hasNext: false,
        stats: event.stats as Stats,
      };
    }
    // Only what is published: a commit not yet on disk is not in a page, and the cursor does not pass it.
    const snapshot = this.history.publishedTs;
    const events: string[] = [];
    let chars = 0;
    let cursor = start.position;
    for (const transaction of this.history.transactionsAfter(source.database, start.position, snapshot)) {
      const processed = await consumer.process(transaction, start.position);
      addCost(cost, processed.cost);
      for (const item of processed.items) {
        if (events.length === pageSize) return { events, cursor: consumer.cursorOf(cursor), hasNext: true, stats: renderStats(cost) };
        const text = stringifyEvent(item.json);
        // A page holds at least one event, so a poll always moves on.
        // The self-check's fault FEED-SHORT-PAGE-ENDS-FEED says a page cut short by its size ends the feed.
        if (events.length > 0 && chars + text.length > FEED_PAGE_MAX_CHARS)
          return { events, cursor: consumer.cursorOf(cursor), hasNext: !failpoint('FEED-SHORT-PAGE-ENDS-FEED'), stats: renderStats(cost) };
        events.push(text);
        chars += text.length;
        cursor = item.position;
        if (item.kind === 'error') return { events, cursor: consumer.cursorOf(item.position), hasNext: false, stats: renderStats(cost) };
      }
    }
    // Everything up to the snapshot was read: the cursor rolls up to it, past discarded writes.
    const end = positionAfterTransaction(snapshot);
    const rolled = compareEventPositions(end, cursor) > 0 ? end : cursor;
    return { events, cursor: consumer.cursorOf(rolled), hasNext: false, stats: renderStats(cost) };
  }
}
