/**
 * The route table: each endpoint is a file exporting an `Endpoint`, registered with one line in
 * `reference-impl/composition.ts`. Paths match exactly; everything else goes to the fallback (legacy REST).
 */
import type { AccessPolicy } from '../eval/access.js';
import type { EvalServices } from '../eval/context.js';
import type { Identity } from '../auth/identity.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { Store } from '../store/store.js';
import type { Exchange } from '../transport/exchange.js';
import type { TransactionManager } from '../txn/transaction-manager.js';

/** What endpoint handlers can use. */
export interface ServerServices {
  readonly store: Store;
  readonly transactions: TransactionManager;
  readonly authenticator: Authenticator;
  readonly evalServices: EvalServices;
  readonly access: AccessPolicy;
}

export interface RequestContext {
  readonly exchange: Exchange;
  /** Present when the endpoint requires auth (then always valid). */
  readonly identity: Identity | undefined;
  readonly services: ServerServices;
}

/** Answers the request; a promise only while the answer has to wait (a request answered at once makes none). */
export type EndpointHandler = (ctx: RequestContext) => Promise<void> | undefined;

/** The error-body dialect of an endpoint: v4 `{"errors":[…]}` or v10 `{"error":{code,message}}`. */
export type ErrorDialect = 'v4' | 'v10';

export interface Endpoint {
  /** Exact path, e.g. `/`, `/ping`, `/query/1`. */
  readonly path: string;
  /** Handlers by upper-case method; other methods get 405 with `Allow`. */
  readonly methods: Readonly<Partial<Record<string, EndpointHandler>>>;
  /** Whether a valid secret is required before the handler runs (401 otherwise). */
  readonly auth: 'required' | 'none';
  readonly errors: ErrorDialect;
  /**
   * For the fallback: whether it serves `path` at all. A path it does not serve answers 404 before the request is
   * authenticated, as the real service answers a path that is no route and no ref (DEC-133).
   */
  readonly serves?: (path: string) => boolean;
}

export class RouteTable {
  private readonly exact = new Map<string, Endpoint>();
  private fallbackEndpoint: Endpoint | undefined;

  add(endpoint: Endpoint): this {
    if (this.exact.has(endpoint.path)) throw new Error(`endpoint ${endpoint.path} registered twice`);
    this.exact.set(endpoint.path, endpoint);
    return this;
  }

  /** The endpoint for paths no exact route matches (its path field is informative only). */
  fallback(endpoint: Endpoint): this {
    this.fallbackEndpoint = endpoint;
    return this;
  }

  resolve(path: string): Endpoint | undefined {
    const exact = this.exact.get(path);
    if (exact !== undefined) return exact;
    const fallback = this.fallbackEndpoint;
    return fallback?.serves === undefined || fallback.serves(path) ? fallback : undefined;
  }
}
