/**
 * Per request: route, check the request parameter headers (DEC-063), authenticate, check the method, run the handler,
 * and turn failures into documented errors.
 */
import { secretFromAuthorization } from '../auth/credentials-header.js';
import { ProtocolError } from '../errors/query-error.js';
import { FAILPOINTS_FIRED_HEADER, FAILPOINTS_HEADER, requestedFailpoints, withFailpoints, type ActiveFailpoints } from '../failpoints.js';
import type { Exchange, ResponseStream } from '../transport/exchange.js';
import { answerPreflight, withCors } from './cors.js';
import { checkRequestParameters } from './request-parameters.js';
import { protocolErrorBody, sendProtocolError } from './responses.js';
import type { Endpoint, RequestContext, RouteTable, ServerServices } from './route-table.js';

/** The 401 messages of the v10 endpoints, as the real service words them (DEC-027): `/query/1`'s is its own. */
const V10_UNAUTHORIZED = 'Invalid token, unable to authenticate request';
const QUERY_UNAUTHORIZED = 'Access token required';

/** What a path no endpoint serves is checked as: a v4 path. */
const NOT_SERVED: Endpoint = { path: '', methods: {}, auth: 'none', errors: 'v4' };

export interface DispatcherOptions {
  /** Honour the failpoints a request names (see failpoints.ts); only the self-check's server turns this on. */
  failpoints?: boolean;
}

export function createDispatcher(
  routes: RouteTable,
  services: ServerServices,
  onFault: (error: unknown) => void,
  options: DispatcherOptions = {},
) {
  const dispatch = dispatcher(routes, services, onFault);
  if (!options.failpoints) return dispatch;
  return (given: Exchange): Promise<void> | undefined => {
    const failpoints = requestedFailpoints(given.request.headers[FAILPOINTS_HEADER]);
    return failpoints === undefined ? dispatch(given) : withFailpoints(failpoints, () => dispatch(reportingFired(given, failpoints)));
  };
}

/** The exchange, answering with the failpoints that fired while the request was handled. */
function reportingFired(exchange: Exchange, failpoints: ActiveFailpoints): Exchange {
  const fired = (headers: Record<string, string>) =>
    failpoints.fired.size === 0 ? headers : { ...headers, [FAILPOINTS_FIRED_HEADER]: [...failpoints.fired].join(',') };
  return {
    request: exchange.request,
    get responded() {
      return exchange.responded;
    },
    respond: (status, headers, body) => exchange.respond(status, fired(headers), body),
    openStream: (status, headers): ResponseStream => exchange.openStream(status, fired(headers)),
  };
}

// Implements: PROTO-ENDPOINT-005, PROTO-STATUS-004, PROTO-VERSION-008, PROTO-VERSION-009
function dispatcher(routes: RouteTable, services: ServerServices, onFault: (error: unknown) => void) {
  return (given: Exchange): Promise<void> | undefined => {
    const origin = given.request.headers.origin;
    if (origin !== undefined && given.request.method === 'OPTIONS') {
      answerPreflight(given, origin);
      return undefined;
    }
    // Only a cross-origin request pays for the wrapper.
    const exchange = origin === undefined ? given : withCors(given, origin);
    const endpoint = routes.resolve(exchange.request.path);
    const bare: RequestContext = { exchange, identity: undefined, services };
    if (!endpoint) {
      // As the real service, whose v4 router answers every other path: its headers are read, then 404, unauthenticated.
      try {
        checkRequestParameters(NOT_SERVED, exchange.request.headers);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        sendProtocolError(bare, 'v4', error.status, error.code, error.description, error.headers);
        return undefined;
      }
      sendProtocolError(bare, 'v4', 404, 'not found', 'Not Found');
      return undefined;
    }
    const failed = (error: unknown): void => {
      if (exchange.responded) throw error;
      if (error instanceof ProtocolError) {
        sendProtocolError(bare, endpoint.errors, error.status, error.code, error.description, error.headers);
        return;
      }
      onFault(error);
      sendProtocolError(bare, endpoint.errors, 500, 'internal server error', 'Internal server error.');
    };
    // No promise for a request answered at once.
    let pending: Promise<void> | undefined;
    try {
      // As the real service, before authentication: a bad header is refused even without a secret.
      checkRequestParameters(endpoint, exchange.request.headers);
      pending = handle(endpoint, bare);
    } catch (error) {
      failed(error);
      return undefined;
    }
    return pending?.catch(failed);
  };
}

// Implements: PROTO-AUTH-002, PROTO-AUTH-003, PROTO-AUTH-004, PROTO-AUTH-005, PROTO-AUTH-007, PROTO-ENDPOINT-003
// Implements: AUTH-SELF-005, AUTH-SELF-006, FEED-REQ-007, STREAM-REQ-004, V4STREAM-REQ-006
/** The handler's promise, or nothing when the request was answered here (one async frame less per request). */
function handle(endpoint: Endpoint, bare: RequestContext): Promise<void> | undefined {
  const { exchange, services } = bare;
  let ctx = bare;
  if (endpoint.auth === 'required') {
    const secret = secretFromAuthorization(exchange.request.headers.authorization);
    const identity = secret === undefined ? undefined : services.authenticator.authenticate(secret);
    if (!identity) {
      const v4 = endpoint.errors === 'v4';
      exchange.respond(
        401,
        {
          'content-type': 'application/json;charset=utf-8',
          'x-txn-time': String(services.transactions.lastTs),
          'www-authenticate': v4 ? 'Basic realm="Unauthorized"' : 'Bearer',
        },
        protocolErrorBody(
          endpoint.errors,
          'unauthorized',
          v4 ? 'Unauthorized' : endpoint.path === '/query/1' ? QUERY_UNAUTHORIZED : V10_UNAUTHORIZED,
        ),
      );
      return undefined;
    }
    ctx = { ...bare, identity };
  }
  const handler = endpoint.methods[exchange.request.method];
  if (!handler) {
    // As the real service words it (`APIResponse.MethodNotAllowed`); HEAD goes with GET, unnamed.
    const allow = Object.keys(endpoint.methods)
      .filter((method) => method !== 'HEAD')
      .sort()
      .join(', ');
    sendProtocolError(
      ctx,
      endpoint.errors,
      405,
      'method not allowed',
      endpoint.errors === 'v4' ? `Allowed methods are ${allow}.` : 'Method not allowed.',
      { allow },
    );
    return undefined;
  }
  return handler(ctx);
}
