/**
 * Assembles the reference server from its parts. Each area adds its forms, native-collection handlers,
 * endpoints and store subscriptions here — one line per registration.
 */
import { Authenticator } from './auth/authenticate.js';
import { keyRolePolicy } from './access-policies/key-role-policy.js';
import { hashPassword, issueSecret, verifyPassword } from './auth/secrets.js';
import { abacPolicy } from './access-policies/abac-policy.js';
import { createFeedEndpoint } from './endpoints/feed.js';
import { legacyRestEndpoint } from './endpoints/legacy-rest.js';
import { pingEndpoint } from './endpoints/ping.js';
import { createV10QueryEndpoint } from './endpoints/query-v10.js';
import { RouteTable, type ServerServices } from './endpoints/route-table.js';
import { createV4StreamEndpoint } from './endpoints/v4-stream.js';
import { createStreamEndpoint } from './endpoints/stream.js';
import { v4QueryEndpoint } from './endpoints/v4-query.js';
import type { AccessPolicy } from './eval/access.js';
import type { EvalServices } from './eval/context.js';
import { FormRegistry } from './eval/form-registry.js';
import { authForms, registerTokenNativeCollection } from './eval/forms/auth.js';
import { coreForms } from './eval/forms/core.js';
import { documentForms } from './eval/forms/documents.js';
import { refForms } from './eval/forms/refs.js';
import { registerRoleNativeCollection, roleForms, runRolePredicate } from './eval/forms/roles.js';
import { registerCoreNativeCollections, schemaForms } from './eval/forms/schema.js';
import { collectionFunctionForms } from './eval/forms/collections-functions.js';
import { aggregateForms } from './eval/forms/aggregates.js';
import { foldAndKeyForms } from './eval/forms/folds-and-keys.js';
import { historyForms } from './eval/forms/history.js';
import { historyWriteForms } from './eval/forms/history-writes.js';
import { formatForms } from './eval/forms/format.js';
import { mathForms } from './eval/forms/math.js';
import { numberForms } from './eval/forms/numbers.js';
import { objectForms } from './eval/forms/objects.js';
import { setFunctionForms } from './eval/forms/set-functions.js';
import { stringForms } from './eval/forms/strings.js';
import { timeForms } from './eval/forms/times.js';
import { typeCheckForms } from './eval/forms/type-checks.js';
import { registerFunctionNativeCollection, userFunctionForms } from './eval/forms/user-functions.js';
import { pagingForms, setReaderFor } from './eval/forms/paging.js';
import { indexNativeHandler, setForms } from './eval/forms/sets.js';
import { IndexManager } from './indexes/index-manager.js';
import { NativeCollectionHandlers } from './eval/native-collections.js';
import { EventService, type EventServerOptions } from './events/event-service.js';
import type { Identity } from './auth/identity.js';
import { eventRuntime } from './fql/runtime/event-runtime.js';
import { Store } from './store/store.js';
import { DEFAULT_QUERY_TIME_LIMIT_MS } from './eval/query-limits.js';
import { DEFAULT_FUNCTION_TIME_LIMIT_MS } from './eval/time-limit.js';
import { TransactionManager } from './txn/transaction-manager.js';

export interface CompositionOptions {
  rootSecret: string;
  bcryptCost: number;
  /** Secret key for signing tokens and cursors the server hands out; persistent with `--data-dir`. */
  serverKey: Uint8Array;
  /** Event feeds and streams: status interval, operations limit, account plan. */
  events?: EventServerOptions;
  /** The time limit of regular expressions and case mappings (default DEFAULT_FUNCTION_TIME_LIMIT_MS). */
  functionTimeLimitMs?: number;
  /** The longest a query may run (default DEFAULT_QUERY_TIME_LIMIT_MS). */
  queryTimeLimitMs?: number;
}

export interface ReferenceServerParts {
  readonly store: Store;
  readonly transactions: TransactionManager;
  readonly forms: FormRegistry;
  readonly natives: NativeCollectionHandlers;
  readonly routes: RouteTable;
  readonly services: ServerServices;
  /** Index entries and states (`indexes/index-manager.ts`); event sources read index definitions here. */
  readonly indexes: IndexManager;
  /** Event history, feeds and streams (`events/`). */
  readonly events: EventService;
}

export function composeReferenceServer(options: CompositionOptions): ReferenceServerParts {
  const store = new Store();
  const transactions = new TransactionManager(store);

  const forms = new FormRegistry();
  forms.register(...coreForms);
  forms.register(...refForms);
  forms.register(...schemaForms);
  forms.register(...documentForms);
  const indexes = new IndexManager(store, transactions);
  const sets = setReaderFor(indexes);
  forms.register(...setForms(), ...pagingForms(sets), ...collectionFunctionForms);
  forms.register(...authForms);
  forms.register(...roleForms);
  // FQL v4 functions beyond the SD's list (DEC-065, profile v4-functions).
  forms.register(
    ...numberForms,
    ...typeCheckForms,
    ...stringForms,
    ...aggregateForms,
    ...objectForms,
    ...userFunctionForms,
    ...timeForms,
    ...mathForms,
    ...setFunctionForms,
    ...foldAndKeyForms,
    ...historyForms,
    ...historyWriteForms,
    ...formatForms,
  );

  const natives = new NativeCollectionHandlers();
  registerCoreNativeCollections(natives);
  natives.register('indexes', indexNativeHandler());
  registerTokenNativeCollection(natives);
  registerRoleNativeCollection(natives);
  registerFunctionNativeCollection(natives);

  const access: AccessPolicy = abacPolicy(keyRolePolicy, runRolePredicate);

  const evalServices: EvalServices = {
    forms,
    access,
    natives,
    hashPassword: (password) => hashPassword(password, options.bcryptCost),
    verifyPassword,
    issueSecret: (kind, database, id) => issueSecret(kind, database, id, options.bcryptCost),
    sets,
    functionTimeLimitMs: options.functionTimeLimitMs ?? DEFAULT_FUNCTION_TIME_LIMIT_MS,
    queryTimeLimitMs: options.queryTimeLimitMs ?? DEFAULT_QUERY_TIME_LIMIT_MS,
  };
  const services: ServerServices = {
    store,
    transactions,
    authenticator: new Authenticator(store, options.rootSecret, () => transactions.readTs),
    evalServices,
    access,
  };

  const routes = new RouteTable();
  routes.add(v4QueryEndpoint);
  routes.add(pingEndpoint);
  const runtime = (identity: Identity, ts: bigint) => eventRuntime(store, evalServices, identity, ts);
  const events = new EventService(store, { ...options.events, serverKey: options.serverKey, runtime }, () => transactions.whenDurable());
  routes.add(createV10QueryEndpoint(events));
  routes.add(createFeedEndpoint(events, options.events?.plan));
  routes.add(createStreamEndpoint(events));
  routes.add(createV4StreamEndpoint(events, indexes));
  routes.fallback(legacyRestEndpoint);

  return { store, transactions, forms, natives, routes, services, indexes, events };
}
