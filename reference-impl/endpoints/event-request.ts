/**
 * What `/feed/1` and `/stream/1` share: the request body (`token`, `start_ts`, `cursor`, `page_size`), the
 * role filter (the AccessPolicy, asked as the consuming secret's identity at the event's time), and the checks that
 * end a stream when the secret that opened it is revoked or its privileges change (DEC-036).
 */
import { failpoint } from '../failpoints.js';
import type { Identity } from '../auth/identity.js';
import type { HistoryTransaction } from '../events/event-history.js';
import { currentIdentity, eventSecretOf, type EventSecret } from '../events/event-secret.js';
import type { EventEndpoint, OpenedSource, ReadCheck } from '../events/source-consumer.js';
import type { EventSourcePlan } from '../fql/runtime/event-source-plan.js';
import { readContextAt } from '../fql/runtime/event-runtime.js';
import type { StreamGuards } from '../events/stream-session.js';
import { DEFAULT_PAGE_SIZE, evaluationError, MAX_PAGE_SIZE, type EventService, type StartResolution } from '../events/event-service.js';
import { userCollectionKey, type DatabaseId } from '../store/store.js';
import { Transaction } from '../txn/transaction.js';
import { Ref } from '../values/value.js';
import type { RequestContext, ServerServices } from './route-table.js';

export interface EventRequest {
  readonly token: string;
  readonly startTs?: bigint;
  readonly cursor?: string;
  readonly pageSize: number;
}

const INT64_MAX = 2n ** 63n - 1n;

export class EventRequestBodyError extends Error {}

function invalid(message: string): EventRequestBodyError {
  return new EventRequestBodyError(`Invalid request body: ${message}`);
}

function describe(value: unknown): string {
  return typeof value === 'string'
    ? `Unexpected string value '${value}'.`
    : `Unexpected value ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}.`;
}

// Implements: FEED-PAGE-003, FEED-REQ-002, FEED-REQ-003, FEED-REQ-004, LIMIT-PAGE-002, STREAM-REQ-002, STREAM-REQ-008
/** Reads the body fields; throws EventRequestBodyError with the service's wording. */
export function parseEventRequest(body: Record<string, unknown>, withPageSize: boolean): EventRequest {
  const token = body.token;
  if (token === undefined || token === null) throw invalid('Value for key token not found.');
  if (typeof token !== 'string') throw invalid(`token: ${describe(token)}`);
  const startTs = body.start_ts;
  // A time is a 64-bit count of microseconds: anything past that range is not a time (and no cursor can hold it).
  if (startTs !== undefined && (typeof startTs !== 'bigint' || startTs < 0n || startTs > INT64_MAX)) throw invalid(describe(startTs));
  const cursor = body.cursor;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') throw invalid(`cursor: ${describe(cursor)}`);
  if (startTs !== undefined && cursor !== undefined && cursor !== null) throw invalid('can not provide both `start_ts` and `cursor`.');
  let pageSize = DEFAULT_PAGE_SIZE;
  const rawSize = body.page_size;
  if (withPageSize && rawSize !== undefined) {
    if (typeof rawSize !== 'bigint') throw invalid(`page_size: ${describe(rawSize)}`);
    const inRange = rawSize < 1n ? 1n : rawSize > BigInt(MAX_PAGE_SIZE) ? BigInt(MAX_PAGE_SIZE) : rawSize;
    // The self-check's faults take an out-of-range size as the nearest one in range: FEED-PAGE-SIZE-CLAMPED either
    // way, LIMIT-FEED-PAGE-SIZE-CLAMPED above the largest only.
    const clamped = rawSize > BigInt(MAX_PAGE_SIZE) ? failpoint('LIMIT-FEED-PAGE-SIZE-CLAMPED') : false;
    if (inRange !== rawSize && !clamped && !failpoint('FEED-PAGE-SIZE-CLAMPED'))
      throw invalid(rawSize <= 0n ? 'page size must be greater than zero.' : `page size can not be greater than ${MAX_PAGE_SIZE}.`);
    pageSize = Number(inRange);
  }
  return {
    token,
    pageSize,
    ...(typeof startTs === 'bigint' ? { startTs } : {}),
    ...(typeof cursor === 'string' ? { cursor } : {}),
  };
}

// Implements: EVT-ACCESS-001, EVT-ACCESS-005
/** The AccessPolicy's read decision for `identity` (the consuming secret's), at the time of the version shown. */
export function readCheckFor(services: ServerServices, identity: Identity): ReadCheck {
  return (collection, id, version, ts) => {
    const ctx = readContextAt(services.store, services.evalServices, identity, ts);
    const ref = new Ref(id, new Ref(collection, new Ref('collections')));
    return Promise.resolve(
      services.access.allows(ctx, {
        action: 'read',
        database: identity.database,
        collection: userCollectionKey(collection),
        ref,
        before: version,
      }),
    );
  };
}

// Implements: ESRC-ACCESS-001
/**
 * Why `identity` may not have events of `plan` at `atTs`, as the real service words it, or undefined when it may: its
 * roles must read the source collection (a read privilege on it, a predicate included), and for a single document
 * that document (fauna/faunadb `ValueSet.scala#L1352-L1367`, `#L1427-L1438`).
 */
export async function sourceReadRefusal(
  services: ServerServices,
  identity: Identity,
  plan: EventSourcePlan,
  atTs: bigint,
): Promise<string | undefined> {
  const ctx = readContextAt(services.store, services.evalServices, identity, atTs);
  const collection = userCollectionKey(plan.collection);
  if (plan.docId !== undefined) {
    const ref = new Ref(plan.docId, new Ref(plan.collection, new Ref('collections')));
    const before = ctx.txn.get(identity.database, collection, plan.docId);
    const allowed = await services.access.allows(ctx, {
      action: 'read',
      database: identity.database,
      collection,
      ref,
      ...(before === undefined ? {} : { before }),
    });
    return allowed ? undefined : 'Insufficient privileges to create a stream on the source document.';
  }
  const allowed = await services.access.hasReadPrivilege(ctx, identity.database, collection);
  return allowed ? undefined : `Insufficient privileges to read from collection ${plan.collection}.`;
}

/**
 * The source a feed or stream request names, opened for the requesting secret, and where its events start; throws
 * EventRequestError when the token is not a source of this database or its rights may not read the source.
 */
export async function openRequestedSource(
  ctx: RequestContext,
  identity: Identity,
  events: EventService,
  request: EventRequest,
  endpoint: EventEndpoint,
): Promise<{ source: OpenedSource; start: StartResolution }> {
  const source = events.open(request.token, eventSecretOf(identity, ctx.services.authenticator), endpoint);
  const refusal = await sourceReadRefusal(ctx.services, source.rights.identity, source.plan, ctx.services.store.lastCommitTs);
  if (refusal !== undefined) throw evaluationError(endpoint, refusal);
  return { source, start: events.resolveStart(source, request) };
}

/** Records whose change can revoke a secret or change what it may do. */
const SECURITY_COLLECTIONS = new Set(['keys', 'tokens', 'roles', 'databases', 'credentials']);

// Implements: EVT-ACCESS-006, STREAM-CLOSE-002, STREAM-CLOSE-001, STREAM-CLOSE-003
/** The stream checks, made for `secret`, the secret whose revocation ends the stream, reading in `database`. */
export function streamGuardsFor(services: ServerServices, secret: EventSecret, database: DatabaseId): StreamGuards {
  const { identity } = secret;
  const usesRoles = identity.role === 'token' || (identity.roleRefs?.length ?? 0) > 0;
  return {
    authorizationLost(transaction: HistoryTransaction | undefined): boolean {
      // Asked by every open stream at every commit: most commits touch no security record.
      if (transaction !== undefined && !transaction.nativeWrites.some((w) => SECURITY_COLLECTIONS.has(w.collection))) return false;
      const touched = transaction?.nativeWrites.filter((w) => SECURITY_COLLECTIONS.has(w.collection));
      if (touched !== undefined && touched.length === 0) return false;
      // The failpoints are the self-check's faults of these names (asked while the revoking request is handled).
      if (currentIdentity(secret, services.authenticator, services.store) === undefined)
        return !(touched?.some((w) => w.collection === 'tokens') === true && failpoint('STREAM-LOGOUT-UNWATCHED'));
      const roleChanged = usesRoles && transaction?.database === identity.database && (touched ?? []).some((w) => w.collection === 'roles');
      return roleChanged && !failpoint('STREAM-ROLE-CHANGE-UNWATCHED');
    },
    databaseLive(atTs: bigint): boolean {
      return new Transaction(services.store, atTs, true).isDatabaseLive(database);
    },
  };
}
