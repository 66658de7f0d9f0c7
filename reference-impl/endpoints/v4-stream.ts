/**
 * `POST /stream` (DEC-064; wire-facts §1.7): the v4 driver's `client.stream(…)` and `client.stream.document(…)`.
 * The body is a v4 expression, evaluated read-only as the secret's identity; a document ref opens a document
 * stream, a `Match` or `Documents` set a set stream. `?fields=` picks the event fields. 200 with
 * `x-fauna-stream-id`, then events as newline-delimited JSON (see events/v4-stream-session.ts). Refusals are v4
 * errors before any event.
 */
import { parseApiVersion, type ApiVersion } from '../codec/api-version.js';
import { parseExpression } from '../codec/v4-expression-parser.js';
import type { Expr } from '../codec/v4-ast.js';
import { errors, QueryError } from '../errors/query-error.js';
import { isNativeCollection } from '../eval/documents.js';
import { termTuple } from '../eval/forms/set-reading.js';
import { documentRef } from '../eval/forms/type-checks.js';
import type { EventService } from '../events/event-service.js';
import { eventSecretOf } from '../events/event-secret.js';
import {
  DEFAULT_V4_EVENT_FIELDS,
  V4_EVENT_FIELDS,
  documentTarget,
  documentsTarget,
  matchTarget,
  type V4EventField,
  type V4StreamTarget,
} from '../events/v4-stream-events.js';
import { V4StreamSession } from '../events/v4-stream-session.js';
import type { IndexManager } from '../indexes/index-manager.js';
import { userCollectionKey, type DatabaseId } from '../store/store.js';
import { failpoint, failpointWhere } from '../failpoints.js';
import { Ref, SetRef, type Value } from '../values/value.js';
import { typeName } from '../eval/arguments.js';
import { readCheckFor, streamGuardsFor } from './event-request.js';
import { JSON_CONTENT_TYPE, sendProtocolError } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';
import { bodyText, runV4, sendV4Error } from './v4-query.js';

const STREAM_WRITE_REFUSAL = 'Call performs a write, which is not allowed in stream requests.';

// Implements: V4STREAM-REQ-005
/** `?fields=a,b`: the names, trimmed; an unknown one is refused with the real service's wording. */
function parseFields(raw: string | null): ReadonlySet<V4EventField> | { invalid: string } {
  if (raw === null) return DEFAULT_V4_EVENT_FIELDS;
  const fields = new Set<V4EventField>();
  for (const part of raw.split(',')) {
    const name = part.trim();
    if (!(V4_EVENT_FIELDS as readonly string[]).includes(name)) return { invalid: name };
    fields.add(name as V4EventField);
  }
  return fields;
}

/** The real service's names for what cannot be streamed (fauna/faunadb ast/Casts.scala `Streamable`, Type.scala). */
function streamableTypeName(value: Value): string {
  if (value instanceof SetRef) return 'Set';
  if (!(value instanceof Ref)) return typeName(value);
  const parent = value.collection;
  if (parent === undefined) return 'Ref';
  if (parent.collection === undefined) {
    const names: Record<string, string> = {
      collections: 'Collection Ref',
      classes: 'Collection Ref',
      indexes: 'Index Ref',
      databases: 'Database Ref',
      keys: 'Key Ref',
      functions: 'User Function Ref',
    };
    return names[parent.id] ?? 'Ref';
  }
  return 'Ref';
}

function notStreamable(value: Value): QueryError {
  return errors.invalidArgument(`Expected a Document Ref or Version, or a Set Ref, got ${streamableTypeName(value)}.`, []);
}

// Implements: V4STREAM-REQ-001, V4STREAM-REQ-002, V4STREAM-REQ-003, V4STREAM-REQ-007
/** What the evaluated body streams, or the error that refuses it. */
function targetOf(
  ctx: RequestContext,
  indexes: IndexManager,
  database: DatabaseId,
  value: Value,
  fields: ReadonlySet<V4EventField>,
): V4StreamTarget | QueryError {
  const { store } = ctx.services;
  const collectionExists = (name: string) => store.getDocument(database, 'collections', name, store.lastCommitTs) !== undefined;
  if (value instanceof Ref) {
    const parent = value.collection;
    // A document of a user collection of this database; its own existence is not required.
    if (
      parent === undefined ||
      value.database !== undefined ||
      parent.database !== undefined ||
      isNativeCollection(parent) ||
      parent.collection === undefined
    )
      return notStreamable(value);
    if (!collectionExists(parent.id)) return errors.invalidRef(`Ref refers to undefined collection '${parent.id}'`, []);
    // The self-check's fault V4STREAM-MISSING-DOCUMENT-REFUSED reads the document before streaming it.
    const missing = () => store.getDocument(database, userCollectionKey(parent.id), value.id, store.lastCommitTs) === undefined;
    if (failpointWhere('V4STREAM-MISSING-DOCUMENT-REFUSED', missing)) return errors.notFound([]);
    return documentTarget(database, value, fields);
  }
  if (value instanceof SetRef) {
    const structure = value.structure;
    const keys = Object.keys(structure);
    const documents = structure.documents;
    if (keys.length === 1 && documents instanceof Ref && documents.database === undefined && !isNativeCollection(documents)) {
      if (!collectionExists(documents.id)) return errors.invalidRef(`Ref refers to undefined collection '${documents.id}'`, []);
      return documentsTarget(database, documents.id, fields);
    }
    const indexRef = structure.match;
    if (indexRef instanceof Ref && indexRef.database === undefined && keys.every((k) => k === 'match' || k === 'terms')) {
      const index = indexes.lookup(database, indexRef.id);
      if (index === undefined) return errors.invalidRef(`Ref refers to undefined index '${indexRef.id}'`, []);
      const terms = termTuple(index.definition.terms.length, structure.terms);
      if (terms === undefined) return errors.invalidArgument(`Index ${indexRef.id} expects ${index.definition.terms.length} term(s).`, []);
      return matchTarget(database, indexRef, terms, (collection, id, version) => indexes.entriesOf(index, collection, id, version), fields);
    }
  }
  // A version (a document as Get answers it) streams its document, as its ref does (StreamSubscription.scala).
  const version = documentRef(value);
  if (version !== undefined) return targetOf(ctx, indexes, database, version, fields);
  return notStreamable(value);
}

let nextStreamId = BigInt(Date.now()) * 1000n;

// Implements: V4STREAM-REQ-001, V4STREAM-REQ-004
export function createV4StreamEndpoint(events: EventService, indexes: IndexManager): Endpoint {
  async function post(ctx: RequestContext): Promise<void> {
    const identity = ctx.identity;
    if (!identity) throw new Error('/stream needs an authenticated identity');
    const request = ctx.exchange.request;
    const apiVersion: ApiVersion = parseApiVersion(request.headers['x-faunadb-api-version']);
    const fields = parseFields(request.query.get('fields'));
    if ('invalid' in fields) {
      // A query error at the root, as the real service renders it (with `position: []`).
      return sendV4Error(
        ctx,
        new QueryError('invalid url parameter', `Invalid url parameter fields. Invalid field name '${fields.invalid}'.`),
        apiVersion,
      );
    }
    const text = bodyText(ctx);
    if (text instanceof QueryError) return sendV4Error(ctx, text, apiVersion);
    let expr: Expr;
    try {
      expr = parseExpression(text);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      return sendV4Error(ctx, error, apiVersion);
    }
    const outcome = await runV4(ctx, expr, apiVersion, STREAM_WRITE_REFUSAL);
    if (!outcome.ok) return sendV4Error(ctx, outcome.error, apiVersion);
    const target = targetOf(ctx, indexes, identity.database, outcome.value, fields);
    if (target instanceof QueryError) return sendV4Error(ctx, target, apiVersion);
    const release = events.streams.acquire(identity);
    if (release === undefined) return sendProtocolError(ctx, 'v4', 429, 'too many requests', 'Too many open streams.');
    // The self-check's fault V4STREAM-LAST-WRITE-SENT (asked before the answer's headers go out, which name it).
    const replayLast = failpoint('V4STREAM-LAST-WRITE-SENT');
    const sink = ctx.exchange.openStream(200, {
      'content-type': JSON_CONTENT_TYPE,
      'x-txn-time': String(events.history.publishedTs),
      'x-fauna-stream-id': String(nextStreamId++),
    });
    const guards = streamGuardsFor(ctx.services, eventSecretOf(identity, ctx.services.authenticator), identity.database);
    new V4StreamSession(events.history, target, readCheckFor(ctx.services, identity), sink, guards, apiVersion, release).run(replayLast);
  }
  return { path: '/stream', auth: 'required', errors: 'v4', methods: { POST: post } };
}
