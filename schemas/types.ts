/* eslint-disable */
// Generated from schemas/*.schema.json by `npm run gen:types` (schemas/generate-types.ts). Do not edit by hand:
// change the schema and regenerate.

/**
 * A v4 reference, as POST / renders it and as expressions may carry it literally. Source: SD "Common encoding" (`@ref`: long form with `id` and `class`; short form `<class>/<id>`) and wire-facts §1.6. Long form: `{"@ref": {"id", "collection" | "class", "database"?}}` where the parent is itself a ref; the key is `collection` when the request carried X-FaunaDB-API-Version ≥ 2.7 and `class` otherwise, and a ref never carries both. The refs of the native collections (`{"@ref": {"id": "collections"}}`, `indexes`, `databases`, `keys`, `tokens`, …) have no parent. Short form (older API versions, and accepted on input): `{"@ref": "collections/users/1"}`, `"classes/users/1"`, `"indexes/by_email"`, `"tokens/self"`.
 */
export type Ref = RefLongForm | RefShortForm;
/**
 * Any value POST / renders inside `{"resource": …}`. Source: SD "Common encoding" and endpoint 1 (sets come back as `@set`, refs as `@ref`, stored queries as `@query`), wire-facts §1.6 (`@ts`, `@date`, `@bytes`, and `@obj`, which the server wraps around any object having a key that starts with `@`). Recursive: scalars, arrays, plain objects whose keys do not start with `@`, and the v4 tags.
 */
export type V4Value =
  | null
  | boolean
  | number
  | string
  | V4Value[]
  | V4PlainObject
  | Ref
  | SetRef
  | QueryTag
  | TsTag
  | DateTag
  | BytesTag
  | ObjTag;
/**
 * Exactly one set-building form with its own keys.
 */
export type SetStructure =
  | SetMatch
  | SetUnion
  | SetIntersection
  | SetDifference
  | SetDistinct
  | SetJoin
  | SetDocuments
  | SetEvents
  | SetSingleton
  | SetRange
  | SetFilter
  | SetReverse;
/**
 * The parameter of a lambda: a name, or an array of names (nested arrays destructure).
 */
export type LambdaParams = string | LambdaParams[];
/**
 * A v4 request expression, the body of POST / and every argument position inside it. Source: SD endpoint 1 (expression table and function contracts: Match, Intersection, Object, Query, Select, Var, Create, Update, Replace, Get, Login, Logout, Identify, Identity, Paginate, Map, Lambda, CreateDatabase, CreateKey, CreateCollection, CreateIndex) and wire-facts §1.5 with driver-captures (the JSON the official v4 driver sends). An expression is a scalar, an array of expressions, a tagged literal (`@ref` long or short, `@set`, `@query`, `@ts`, `@date`, `@bytes`, `@uuid`, `@obj`) or exactly one function form; every argument position accepts any expression, so forms compose. A raw JSON object that is not a form must be wrapped as `{"object": {…}}`. Whether an argument evaluates to the right type is checked by the server at run time, not here.
 */
export type Expression =
  | null
  | boolean
  | number
  | string
  | Expression[]
  | Ref
  | SetRef
  | QueryTag
  | TsTag
  | DateTag
  | BytesTag
  | UuidTag
  | ExpressionLiteralObj
  | ExpressionCreate
  | ExpressionUpdate
  | ExpressionReplace
  | ExpressionDelete
  | ExpressionGet
  | ExpressionExists
  | ExpressionInsert
  | ExpressionRemove
  | ExpressionLogin
  | ExpressionLogout
  | ExpressionIdentify
  | ExpressionIdentity
  | ExpressionCurrentIdentity
  | ExpressionHasIdentity
  | ExpressionHasCurrentIdentity
  | ExpressionCurrentToken
  | ExpressionHasCurrentToken
  | ExpressionKeyFromSecret
  | ExpressionMatch
  | ExpressionLegacyMatch
  | ExpressionUnion
  | ExpressionIntersection
  | ExpressionDifference
  | ExpressionDistinct
  | ExpressionJoin
  | ExpressionSingleton
  | ExpressionEvents
  | ExpressionRange
  | ExpressionPaginate
  | ExpressionMap
  | ExpressionForeach
  | ExpressionFilter
  | ExpressionReduce
  | ExpressionTake
  | ExpressionDrop
  | ExpressionAppend
  | ExpressionPrepend
  | ExpressionLambda
  | ExpressionVar
  | ExpressionLet
  | ExpressionDo
  | ExpressionIf
  | ExpressionSelect
  | ExpressionSelectWithAll
  | ExpressionSelectAll
  | ExpressionObject
  | ExpressionQuery
  | ExpressionCall
  | ExpressionAbort
  | ExpressionAt
  | ExpressionCreateDatabase
  | ExpressionCreateKey
  | ExpressionCreateCollection
  | ExpressionCreateClass
  | ExpressionCreateIndex
  | ExpressionCreateRole
  | ExpressionCreateFunction
  | ExpressionCreateAccessProvider
  | ExpressionMoveDatabase
  | ExpressionCollection
  | ExpressionClass
  | ExpressionIndex
  | ExpressionDatabase
  | ExpressionRole
  | ExpressionFunction
  | ExpressionAccessProvider
  | ExpressionRef
  | ExpressionDocuments
  | ExpressionCollections
  | ExpressionClasses
  | ExpressionIndexes
  | ExpressionDatabases
  | ExpressionKeys
  | ExpressionTokens
  | ExpressionRoles
  | ExpressionCredentials
  | ExpressionFunctions
  | ExpressionAccessProviders
  | ExpressionNow
  | ExpressionNewId
  | ExpressionTime
  | ExpressionDate
  | ExpressionEpoch
  | ExpressionEquals
  | ExpressionAdd
  | ExpressionSubtract
  | ExpressionMultiply
  | ExpressionDivide
  | ExpressionModulo
  | ExpressionAnd
  | ExpressionOr
  | ExpressionNot
  | ExpressionLt
  | ExpressionLte
  | ExpressionGt
  | ExpressionGte
  | ExpressionCount
  | ExpressionSum
  | ExpressionMean
  | ExpressionAny
  | ExpressionAll
  | ExpressionIsEmpty
  | ExpressionIsNonempty
  | ExpressionLength
  | ExpressionLowercase
  | ExpressionUppercase
  | ExpressionToString
  | ExpressionToNumber
  | ExpressionToObject
  | ExpressionToArray
  | ExpressionToDouble
  | ExpressionToInteger
  | ExpressionToTime
  | ExpressionToDate
  | ExpressionConcat
  | ExpressionMerge
  | ExpressionContainsPath
  | ExpressionContains
  | ExpressionContainsField
  | ExpressionContainsValue
  | ExpressionAbs
  | ExpressionMax
  | ExpressionMin
  | ExpressionIsNumber
  | ExpressionIsDouble
  | ExpressionIsInteger
  | ExpressionIsBoolean
  | ExpressionIsNull
  | ExpressionIsString
  | ExpressionIsArray
  | ExpressionIsObject
  | ExpressionIsBytes
  | ExpressionIsTimestamp
  | ExpressionIsDate
  | ExpressionIsRef
  | ExpressionIsSet
  | ExpressionIsDoc
  | ExpressionIsLambda
  | ExpressionIsCollection
  | ExpressionIsDatabase
  | ExpressionIsIndex
  | ExpressionIsFunction
  | ExpressionIsKey
  | ExpressionIsToken
  | ExpressionIsCredentials
  | ExpressionIsRole
  | ExpressionReverse
  | ExpressionCasefold
  | ExpressionStartswith
  | ExpressionEndswith
  | ExpressionContainsstr
  | ExpressionFindstr
  | ExpressionTitlecase
  | ExpressionTrim
  | ExpressionLtrim
  | ExpressionRtrim
  | ExpressionRepeat
  | ExpressionReplacestr
  | ExpressionSpace
  | ExpressionSubstring
  | ExpressionToMicros
  | ExpressionToMillis
  | ExpressionToSeconds
  | ExpressionSecond
  | ExpressionMinute
  | ExpressionHour
  | ExpressionDayOfMonth
  | ExpressionDayOfWeek
  | ExpressionDayOfYear
  | ExpressionMonth
  | ExpressionYear
  | ExpressionTimeAdd
  | ExpressionTimeSubtract
  | ExpressionTimeDiff
  | ExpressionCeil
  | ExpressionFloor
  | ExpressionRound
  | ExpressionTrunc
  | ExpressionSign
  | ExpressionSqrt
  | ExpressionPow
  | ExpressionExp
  | ExpressionLn
  | ExpressionLog
  | ExpressionHypot
  | ExpressionBitand
  | ExpressionBitor
  | ExpressionBitxor
  | ExpressionBitnot
  | ExpressionAcos
  | ExpressionAsin
  | ExpressionAtan
  | ExpressionCos
  | ExpressionCosh
  | ExpressionDegrees
  | ExpressionRadians
  | ExpressionSin
  | ExpressionSinh
  | ExpressionTan
  | ExpressionTanh
  | ExpressionContainsstrregex
  | ExpressionFindstrregex
  | ExpressionReplacestrregex
  | ExpressionRegexescape
  | ExpressionNgram
  | ExpressionFormat
  | ExpressionNextId;
/**
 * What appears in a page's `after` or `before`, and what Paginate accepts back: an array of values, the covered values of the boundary entry followed by its ref. Source: SD "Page" (the instance ref can appear in cursors even if it is not a covered value; this stabilizes paging) and wire-facts §1.6; driver-captures show the driver resending it as literal tagged JSON.
 *
 * @minItems 1
 */
export type Cursor = [V4Value, ...V4Value[]];
/**
 * Any event of a stream: one of the five types `add`, `update`, `remove`, `status`, `error`. Source: SD "Events" and wire-facts §4.2.
 */
export type Event = EventAdd | EventUpdate | EventRemove | EventStatus | EventError;
/**
 * Any value in the v10 tagged format: untagged strings, booleans, null, arrays, plain objects (keys not starting with `@`) and the v10 tags. Bare numbers are allowed because the simple format (x-format absent) renders them untagged.
 */
export type V10Value =
  | null
  | boolean
  | number
  | string
  | V10Value[]
  | {
      [k: string]: V10Value | undefined;
    }
  | IntTag
  | LongTag
  | DoubleTag
  | TimeTag
  | DateTag
  | BytesTag
  | UuidTag
  | ModTag
  | DocTag
  | V10RefTag
  | V10SetTag
  | ObjectTag
  | StreamTag;
/**
 * An event in a feed page: any event type except `status`, which feeds never contain. Source: SD endpoint 3 and "Event types".
 */
export type FeedEvent = EventAdd | EventUpdate | EventRemove | EventError;
/**
 * The tagged encodings, one `$defs` entry per tag. Source: SD "Common encoding" (`@ref`, `@set`, `@query`, `@doc`, `@mod`, `@time`) and wire-facts §1.6 (v4: `@ref`, `@set`, `@query`, `@ts`, `@date`, `@bytes`, `@obj`) and §3.1 (v10: `@doc`, `@mod`, `@time`, `@int`, `@long`, `@double`, `@object`, `@ref`, `@set`, `@stream`). v4 and v10 both use `@ref` and `@set` with different bodies: `ref`/`set` are the v4 ones, `v10-ref`/`v10-set` the v10 ones. The root accepts any single tagged value of either protocol.
 */
export type Tagged =
  | Ref
  | SetRef
  | QueryTag
  | TsTag
  | DateTag
  | BytesTag
  | ObjTag
  | UuidTag
  | DocTag
  | ModTag
  | TimeTag
  | IntTag
  | LongTag
  | DoubleTag
  | ObjectTag
  | V10RefTag
  | V10SetTag
  | StreamTag;
/**
 * Literal text, an interpolated value, a nested fragment, or an object or array of fragments.
 */
export type FQLFragmentPart =
  | string
  | {
      value: V10Value;
    }
  | FQLFragment
  | {
      object: {
        [k: string]: FQLFragment | undefined;
      };
    }
  | {
      array: FQLFragment[];
    };
/**
 * Any v4 error body: a query error (with `position`, v4-query-error) or a protocol error (without, v4-protocol-error). Source: SD "Errors"; wire-facts §1.4.
 */
export type V4Error = V4QueryError | V4ProtocolError;
/**
 * One event of a v4 stream (`POST /stream`, DEC-064; the `faunadb` 4.x driver's `client.stream`), one JSON object per line: `{"type", "txn", "event"}`. `start` opens every stream; `version` (and `history_rewrite`) report writes of a streamed document; `set` reports documents entering or leaving a streamed set; `error` ends the stream. The fields of `version` and `set` events are those the request named in `?fields=` (default `action` and `document`). Source: wire-facts §1.7; fauna/faunadb stream/EventEncoder.scala. Closed.
 */
export type V4StreamEvent = V4StreamStartEvent | V4StreamVersionEvent | V4StreamSetEvent | V4StreamErrorEvent;
/**
 * The commit time of the transaction the event belongs to, microseconds since the Unix epoch.
 */
export type TransactionTime = number;

/**
 * Every schema in schemas/, by file name.
 */
export interface WireSchemas {
  collection: Collection;
  config: FaunaConformanceConfig;
  'conformance-report': ConformanceReport;
  cursor: Cursor;
  database: Database;
  document: Document;
  event: Event;
  'event-add': EventAdd;
  'event-error': EventError;
  'event-remove': EventRemove;
  'event-status': EventStatus;
  'event-update': EventUpdate;
  expectations: ConformanceExpectations;
  expression: Expression;
  'feed-event': FeedEvent;
  'feed-request': FeedRequest;
  'feed-response': FeedResponse;
  function: Function;
  index: Index;
  'index-source': IndexSource;
  'index-term': IndexTerm;
  'index-value': IndexValue;
  key: Key;
  'key-created': KeyCreated;
  page: Page;
  ref: Ref;
  'requirements-index': RequirementsIndex;
  role: Role;
  'set-ref': SetRef;
  stats: Stats;
  'stream-request': StreamRequest;
  tagged: Tagged;
  'token-login': TokenLogin;
  'token-self': TokenSelf;
  'v10-error': V10Error;
  'v10-query-request': V10QueryRequest;
  'v10-query-response': V10QueryResponse;
  'v10-query-stats': V10QueryStats;
  'v4-error': V4Error;
  'v4-protocol-error': V4ProtocolError;
  'v4-query-error': V4QueryError;
  'v4-stream-event': V4StreamEvent;
  'v4-success': V4Success;
  'v4-value': V4Value;
}
/**
 * A collection (older term: class) record as CreateCollection, CreateClass and Get return it. Source: SD "Collection" (`name` required on creation; `history_days` appears in the creation result, days of history retained, 0 or unset meaning 15 minutes; `ref`, `ts` returned). `history_days` may be null when unset. Open: the real service adds fields such as `ttl_days`, `data`, `permissions`.
 */
export interface Collection {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name: string;
  history_days: number | null;
  ttl_days?: number | null;
  data?: {
    [k: string]: V4Value | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * The object form `{"@ref": {"id": …, "collection": …}}`.
 */
export interface RefLongForm {
  '@ref': RefBody;
}
/**
 * Inside a long-form ref. `collection` (API ≥ 2.7) and `class` (older) name the parent and never appear together; `database` is present on refs scoped to a child database; without a parent the `id` must name a native collection.
 */
export interface RefBody {
  /**
   * Document ids are decimal strings; collection, index, database and role refs use their name.
   */
  id: string;
  collection?: Ref;
  class?: Ref;
  database?: Ref;
}
/**
 * The string form `{"@ref": "<class>/<id>"}`.
 */
export interface RefShortForm {
  '@ref': string;
}
/**
 * An object none of whose keys starts with `@`; objects with such keys are escaped as `@obj`.
 */
export interface V4PlainObject {
  [k: string]: V4Value | undefined;
}
/**
 * A set reference as POST / returns it: `{"@set": <structure>}`. Source: SD "Set" (Match builds `{"match": <index ref>, "terms": …}`; `terms` is omitted for an index without terms; Intersection, Union and Join build composite sets such as `{"intersection": [<set>, …]}`; set refs are equal when their structure is equal) and wire-facts §1.6 (also `documents`, `events`, `singleton`, `distinct`, `join`/`with`, `range`/`from`/`to`). Members are rendered values, so nested sets appear as `@set` and indexes as `@ref`.
 */
export interface SetRef {
  '@set': SetStructure;
}
export interface SetMatch {
  match: V4Value;
  terms?: V4Value;
}
export interface SetUnion {
  union: V4Value;
}
export interface SetIntersection {
  intersection: V4Value;
}
export interface SetDifference {
  difference: V4Value;
}
export interface SetDistinct {
  distinct: V4Value;
}
export interface SetJoin {
  join: V4Value;
  with: V4Value;
}
export interface SetDocuments {
  documents: V4Value;
}
export interface SetEvents {
  events: V4Value;
}
export interface SetSingleton {
  singleton: V4Value;
}
export interface SetRange {
  range: V4Value;
  from: V4Value;
  to: V4Value;
}
export interface SetFilter {
  filter: V4Value;
  collection: V4Value;
}
export interface SetReverse {
  reverse: V4Value;
}
/**
 * v4 `@query`: a stored lambda (SD "Common encoding"; wire-facts §1.6 adds `api_version`).
 */
export interface QueryTag {
  '@query': {
    lambda: LambdaParams;
    expr: Expression;
    /**
     * The API version the lambda was stored under, e.g. "4".
     */
    api_version?: string;
  };
}
/**
 * v4 `@ts`: an ISO 8601 timestamp in UTC, up to nanoseconds, e.g. "1970-01-01T00:00:00.123456789Z" (wire-facts §1.6).
 */
export interface TsTag {
  '@ts': string;
}
/**
 * `@date`: an ISO 8601 calendar date "YYYY-MM-DD" (wire-facts §1.6 and §3.1; same in v4 and v10).
 */
export interface DateTag {
  '@date': string;
}
/**
 * `@bytes`: standard base64 with padding (wire-facts §1.6 and §3.1).
 */
export interface BytesTag {
  '@bytes': string;
}
/**
 * `@uuid` (wire-facts §1.6 and §3.1).
 */
export interface UuidTag {
  '@uuid': string;
}
/**
 * `{"@obj": {…}}`: an object literal whose keys may start with `@`; values are expressions.
 */
export interface ExpressionLiteralObj {
  '@obj': {
    [k: string]: Expression | undefined;
  };
}
/**
 * Create(collection, params): `{"create": <collection ref>, "params": {"object": {"data": …, "credentials": …}}}`; answered with 201.
 */
export interface ExpressionCreate {
  create: Expression;
  params?: Expression;
}
/**
 * Update(ref, params): `{"update": <ref>, "params": <object>}`; params may carry `credentials.password`.
 */
export interface ExpressionUpdate {
  update: Expression;
  params: Expression;
}
/**
 * Replace(ref, params): `{"replace": <ref>, "params": <object>}`; params may carry `credentials.password`.
 */
export interface ExpressionReplace {
  replace: Expression;
  params: Expression;
}
/**
 * Delete(ref).
 */
export interface ExpressionDelete {
  delete: Expression;
}
/**
 * Get(ref[, ts]).
 */
export interface ExpressionGet {
  get: Expression;
  ts?: Expression;
}
/**
 * Exists(ref[, ts]).
 */
export interface ExpressionExists {
  exists: Expression;
  ts?: Expression;
}
/**
 * Insert(ref, ts, action, params).
 */
export interface ExpressionInsert {
  insert: Expression;
  ts: Expression;
  action: Expression;
  params?: Expression;
}
/**
 * Remove(ref, ts, action).
 */
export interface ExpressionRemove {
  remove: Expression;
  ts: Expression;
  action: Expression;
}
/**
 * Login(ref or match, {"object": {"password": …, "data"?: …}}).
 */
export interface ExpressionLogin {
  login: Expression;
  params: Expression;
}
/**
 * Logout(all_tokens): `{"logout": true|false}`.
 */
export interface ExpressionLogout {
  logout: Expression;
}
/**
 * Identify(ref, password).
 */
export interface ExpressionIdentify {
  identify: Expression;
  password: Expression;
}
/**
 * `{"identity": null}`.
 */
export interface ExpressionIdentity {
  identity: null;
}
/**
 * `{"current_identity": null}`.
 */
export interface ExpressionCurrentIdentity {
  current_identity: null;
}
/**
 * `{"has_identity": null}`.
 */
export interface ExpressionHasIdentity {
  has_identity: null;
}
/**
 * `{"has_current_identity": null}`.
 */
export interface ExpressionHasCurrentIdentity {
  has_current_identity: null;
}
/**
 * `{"current_token": null}`.
 */
export interface ExpressionCurrentToken {
  current_token: null;
}
/**
 * `{"has_current_token": null}`.
 */
export interface ExpressionHasCurrentToken {
  has_current_token: null;
}
/**
 * KeyFromSecret(secret).
 */
export interface ExpressionKeyFromSecret {
  key_from_secret: Expression;
}
/**
 * Match(index, terms…): `{"match": <index>, "terms": <scalar or array>}`; `terms` omitted or `[]` for an index without terms (SD endpoint 1; wire-facts §1.5).
 */
export interface ExpressionMatch {
  match: Expression;
  terms?: Expression;
}
/**
 * Legacy Match with the arguments swapped: `{"match": <terms>, "index": <index>}` (wire-facts §1.5).
 */
export interface ExpressionLegacyMatch {
  match: Expression;
  index: Expression;
}
/**
 * Union(sets…): `{"union": [<set>, …]}`, a single set unwrapped.
 */
export interface ExpressionUnion {
  union: Expression;
}
/**
 * Intersection(sets…): `{"intersection": [<set>, …]}`, a single set unwrapped.
 */
export interface ExpressionIntersection {
  intersection: Expression;
}
/**
 * Difference(sets…): `{"difference": [<set>, …]}`, a single set unwrapped.
 */
export interface ExpressionDifference {
  difference: Expression;
}
/**
 * Distinct(set).
 */
export interface ExpressionDistinct {
  distinct: Expression;
}
/**
 * Join(source, target): `{"join": <set>, "with": <index or lambda>}`.
 */
export interface ExpressionJoin {
  join: Expression;
  with: Expression;
}
/**
 * Singleton(ref).
 */
export interface ExpressionSingleton {
  singleton: Expression;
}
/**
 * Events(ref or set).
 */
export interface ExpressionEvents {
  events: Expression;
}
/**
 * Range(set, from, to).
 */
export interface ExpressionRange {
  range: Expression;
  from: Expression;
  to: Expression;
}
/**
 * Paginate(set, opts) with the options copied flat: `size`, `after`, `before`, `cursor`, `ts`, `events`, `sources` (wire-facts §1.5). At most one of `after`, `before`, `cursor`.
 */
export interface ExpressionPaginate {
  paginate: Expression;
  size?: Expression;
  after?: Expression;
  before?: Expression;
  cursor?: Expression;
  ts?: Expression;
  events?: Expression;
  sources?: Expression;
}
/**
 * Map(collection, lambda): the lambda comes first, `{"map": <lambda>, "collection": <array or page or set>}`.
 */
export interface ExpressionMap {
  map: Expression;
  collection: Expression;
}
/**
 * Foreach(collection, lambda): the lambda comes first, `{"foreach": <lambda>, "collection": <array or page or set>}`.
 */
export interface ExpressionForeach {
  foreach: Expression;
  collection: Expression;
}
/**
 * Filter(collection, lambda): the lambda comes first, `{"filter": <lambda>, "collection": <array or page or set>}`.
 */
export interface ExpressionFilter {
  filter: Expression;
  collection: Expression;
}
/**
 * Reduce(lambda, initial, collection).
 */
export interface ExpressionReduce {
  reduce: Expression;
  initial: Expression;
  collection: Expression;
}
/**
 * Take: `{"take": <value>, "collection": <array>}`.
 */
export interface ExpressionTake {
  take: Expression;
  collection: Expression;
}
/**
 * Drop: `{"drop": <value>, "collection": <array>}`.
 */
export interface ExpressionDrop {
  drop: Expression;
  collection: Expression;
}
/**
 * Append: `{"append": <value>, "collection": <array>}`.
 */
export interface ExpressionAppend {
  append: Expression;
  collection: Expression;
}
/**
 * Prepend: `{"prepend": <value>, "collection": <array>}`.
 */
export interface ExpressionPrepend {
  prepend: Expression;
  collection: Expression;
}
/**
 * Lambda(params, expr): `{"lambda": "x" | ["a", "b"], "expr": …}`.
 */
export interface ExpressionLambda {
  lambda: LambdaParams;
  expr: Expression;
}
/**
 * Var(name).
 */
export interface ExpressionVar {
  var: string;
}
/**
 * Let(bindings, in): bindings as an array of single-key objects (what drivers send) or one object.
 */
export interface ExpressionLet {
  let:
    | [
        {
          [k: string]: Expression | undefined;
        },
        ...{
          [k: string]: Expression | undefined;
        }[]
      ]
    | {
        [k: string]: Expression | undefined;
      };
  in: Expression;
}
/**
 * Do(exprs…): `{"do": [e1, e2]}`, a single expression unwrapped.
 */
export interface ExpressionDo {
  do: Expression;
}
/**
 * If(cond, then, else).
 */
export interface ExpressionIf {
  if: Expression;
  then: Expression;
  else: Expression;
}
/**
 * Select(path, from[, default]).
 */
export interface ExpressionSelect {
  select: Expression;
  from: Expression;
  default?: Expression;
}
/**
 * Select with `all` (wire-facts §1.5: the server also accepts it).
 */
export interface ExpressionSelectWithAll {
  select: Expression;
  from: Expression;
  all: Expression;
}
/**
 * SelectAll(path, from).
 */
export interface ExpressionSelectAll {
  select_all: Expression;
  from: Expression;
}
/**
 * Object: `{"object": {<name>: <expr>, …}}`; values are evaluated.
 */
export interface ExpressionObject {
  object: {
    [k: string]: Expression | undefined;
  };
}
/**
 * Query(lambda): `{"query": {"lambda": …, "expr": …}}`, returned as `@query`.
 */
export interface ExpressionQuery {
  query: Expression;
}
/**
 * Call(function, args…).
 */
export interface ExpressionCall {
  call: Expression;
  arguments?: Expression;
}
/**
 * Abort(message).
 */
export interface ExpressionAbort {
  abort: Expression;
}
/**
 * At(ts, expr).
 */
export interface ExpressionAt {
  at: Expression;
  expr: Expression;
}
/**
 * `{"create_database": <params object>}`.
 */
export interface ExpressionCreateDatabase {
  create_database: Expression;
}
/**
 * `{"create_key": <params object>}`.
 */
export interface ExpressionCreateKey {
  create_key: Expression;
}
/**
 * `{"create_collection": <params object>}`.
 */
export interface ExpressionCreateCollection {
  create_collection: Expression;
}
/**
 * `{"create_class": <params object>}`.
 */
export interface ExpressionCreateClass {
  create_class: Expression;
}
/**
 * `{"create_index": <params object>}`.
 */
export interface ExpressionCreateIndex {
  create_index: Expression;
}
/**
 * `{"create_role": <params object>}`.
 */
export interface ExpressionCreateRole {
  create_role: Expression;
}
/**
 * `{"create_function": <params object>}`.
 */
export interface ExpressionCreateFunction {
  create_function: Expression;
}
/**
 * `{"create_access_provider": <params object>}`.
 */
export interface ExpressionCreateAccessProvider {
  create_access_provider: Expression;
}
/**
 * MoveDatabase(from, to).
 */
export interface ExpressionMoveDatabase {
  move_database: Expression;
  to: Expression;
}
/**
 * Named ref `{"collection": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionCollection {
  collection: Expression;
  scope?: Expression;
}
/**
 * Named ref `{"class": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionClass {
  class: Expression;
  scope?: Expression;
}
/**
 * Named ref `{"index": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionIndex {
  index: Expression;
  scope?: Expression;
}
/**
 * Named ref `{"database": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionDatabase {
  database: Expression;
  scope?: Expression;
}
/**
 * Named ref `{"role": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionRole {
  role: Expression;
  scope?: Expression;
}
/**
 * Named ref `{"function": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionFunction {
  function: Expression;
  scope?: Expression;
}
/**
 * Named ref `{"access_provider": <name>, "scope"?: <database ref>}`.
 */
export interface ExpressionAccessProvider {
  access_provider: Expression;
  scope?: Expression;
}
/**
 * Ref(collection, id): `{"ref": <collection ref>, "id": "123"}`.
 */
export interface ExpressionRef {
  ref: Expression;
  id: Expression;
}
/**
 * Documents(collection).
 */
export interface ExpressionDocuments {
  documents: Expression;
}
/**
 * `{"collections": null}` or with a database ref for a child database.
 */
export interface ExpressionCollections {
  collections: Expression;
}
/**
 * `{"classes": null}` or with a database ref for a child database.
 */
export interface ExpressionClasses {
  classes: Expression;
}
/**
 * `{"indexes": null}` or with a database ref for a child database.
 */
export interface ExpressionIndexes {
  indexes: Expression;
}
/**
 * `{"databases": null}` or with a database ref for a child database.
 */
export interface ExpressionDatabases {
  databases: Expression;
}
/**
 * `{"keys": null}` or with a database ref for a child database.
 */
export interface ExpressionKeys {
  keys: Expression;
}
/**
 * `{"tokens": null}` or with a database ref for a child database.
 */
export interface ExpressionTokens {
  tokens: Expression;
}
/**
 * `{"roles": null}` or with a database ref for a child database.
 */
export interface ExpressionRoles {
  roles: Expression;
}
/**
 * `{"credentials": null}` or with a database ref for a child database.
 */
export interface ExpressionCredentials {
  credentials: Expression;
}
/**
 * `{"functions": null}` or with a database ref for a child database.
 */
export interface ExpressionFunctions {
  functions: Expression;
}
/**
 * `{"access_providers": null}` or with a database ref for a child database.
 */
export interface ExpressionAccessProviders {
  access_providers: Expression;
}
/**
 * Now().
 */
export interface ExpressionNow {
  now: null;
}
/**
 * NewId().
 */
export interface ExpressionNewId {
  new_id: null;
}
/**
 * Time(string).
 */
export interface ExpressionTime {
  time: Expression;
}
/**
 * Date(string).
 */
export interface ExpressionDate {
  date: Expression;
}
/**
 * Epoch(number, unit).
 */
export interface ExpressionEpoch {
  epoch: Expression;
  unit: Expression;
}
/**
 * `{"equals": …}`.
 */
export interface ExpressionEquals {
  equals: Expression;
}
/**
 * `{"add": …}`.
 */
export interface ExpressionAdd {
  add: Expression;
}
/**
 * `{"subtract": …}`.
 */
export interface ExpressionSubtract {
  subtract: Expression;
}
/**
 * `{"multiply": …}`.
 */
export interface ExpressionMultiply {
  multiply: Expression;
}
/**
 * `{"divide": …}`.
 */
export interface ExpressionDivide {
  divide: Expression;
}
/**
 * `{"modulo": …}`.
 */
export interface ExpressionModulo {
  modulo: Expression;
}
/**
 * `{"and": …}`.
 */
export interface ExpressionAnd {
  and: Expression;
}
/**
 * `{"or": …}`.
 */
export interface ExpressionOr {
  or: Expression;
}
/**
 * `{"not": …}`.
 */
export interface ExpressionNot {
  not: Expression;
}
/**
 * `{"lt": …}`.
 */
export interface ExpressionLt {
  lt: Expression;
}
/**
 * `{"lte": …}`.
 */
export interface ExpressionLte {
  lte: Expression;
}
/**
 * `{"gt": …}`.
 */
export interface ExpressionGt {
  gt: Expression;
}
/**
 * `{"gte": …}`.
 */
export interface ExpressionGte {
  gte: Expression;
}
/**
 * `{"count": …}`.
 */
export interface ExpressionCount {
  count: Expression;
}
/**
 * `{"sum": …}`.
 */
export interface ExpressionSum {
  sum: Expression;
}
/**
 * `{"mean": …}`.
 */
export interface ExpressionMean {
  mean: Expression;
}
/**
 * `{"any": …}`.
 */
export interface ExpressionAny {
  any: Expression;
}
/**
 * `{"all": …}`.
 */
export interface ExpressionAll {
  all: Expression;
}
/**
 * `{"is_empty": …}`.
 */
export interface ExpressionIsEmpty {
  is_empty: Expression;
}
/**
 * `{"is_nonempty": …}`.
 */
export interface ExpressionIsNonempty {
  is_nonempty: Expression;
}
/**
 * `{"length": …}`.
 */
export interface ExpressionLength {
  length: Expression;
}
/**
 * `{"lowercase": …}`.
 */
export interface ExpressionLowercase {
  lowercase: Expression;
}
/**
 * `{"uppercase": …}`.
 */
export interface ExpressionUppercase {
  uppercase: Expression;
}
/**
 * `{"to_string": …}`.
 */
export interface ExpressionToString {
  to_string: Expression;
}
/**
 * `{"to_number": …}`.
 */
export interface ExpressionToNumber {
  to_number: Expression;
}
/**
 * `{"to_object": …}`.
 */
export interface ExpressionToObject {
  to_object: Expression;
}
/**
 * `{"to_array": …}`.
 */
export interface ExpressionToArray {
  to_array: Expression;
}
/**
 * `{"to_double": …}`.
 */
export interface ExpressionToDouble {
  to_double: Expression;
}
/**
 * `{"to_integer": …}`.
 */
export interface ExpressionToInteger {
  to_integer: Expression;
}
/**
 * `{"to_time": …}`.
 */
export interface ExpressionToTime {
  to_time: Expression;
}
/**
 * `{"to_date": …}`.
 */
export interface ExpressionToDate {
  to_date: Expression;
}
/**
 * Concat(strings[, separator]).
 */
export interface ExpressionConcat {
  concat: Expression;
  separator?: Expression;
}
/**
 * Merge(object, with[, lambda]).
 */
export interface ExpressionMerge {
  merge: Expression;
  with: Expression;
  lambda?: Expression;
}
/**
 * `{"contains_path": …, "in": …}`.
 */
export interface ExpressionContainsPath {
  contains_path: Expression;
  in: Expression;
}
/**
 * `{"contains": …, "in": …}`.
 */
export interface ExpressionContains {
  contains: Expression;
  in: Expression;
}
/**
 * `{"contains_field": …, "in": …}`.
 */
export interface ExpressionContainsField {
  contains_field: Expression;
  in: Expression;
}
/**
 * `{"contains_value": …, "in": …}`.
 */
export interface ExpressionContainsValue {
  contains_value: Expression;
  in: Expression;
}
/**
 * `{"abs": …}`.
 */
export interface ExpressionAbs {
  abs: Expression;
}
/**
 * `{"max": …}`.
 */
export interface ExpressionMax {
  max: Expression;
}
/**
 * `{"min": …}`.
 */
export interface ExpressionMin {
  min: Expression;
}
/**
 * `{"is_number": …}`.
 */
export interface ExpressionIsNumber {
  is_number: Expression;
}
/**
 * `{"is_double": …}`.
 */
export interface ExpressionIsDouble {
  is_double: Expression;
}
/**
 * `{"is_integer": …}`.
 */
export interface ExpressionIsInteger {
  is_integer: Expression;
}
/**
 * `{"is_boolean": …}`.
 */
export interface ExpressionIsBoolean {
  is_boolean: Expression;
}
/**
 * `{"is_null": …}`.
 */
export interface ExpressionIsNull {
  is_null: Expression;
}
/**
 * `{"is_string": …}`.
 */
export interface ExpressionIsString {
  is_string: Expression;
}
/**
 * `{"is_array": …}`.
 */
export interface ExpressionIsArray {
  is_array: Expression;
}
/**
 * `{"is_object": …}`.
 */
export interface ExpressionIsObject {
  is_object: Expression;
}
/**
 * `{"is_bytes": …}`.
 */
export interface ExpressionIsBytes {
  is_bytes: Expression;
}
/**
 * `{"is_timestamp": …}`.
 */
export interface ExpressionIsTimestamp {
  is_timestamp: Expression;
}
/**
 * `{"is_date": …}`.
 */
export interface ExpressionIsDate {
  is_date: Expression;
}
/**
 * `{"is_ref": …}`.
 */
export interface ExpressionIsRef {
  is_ref: Expression;
}
/**
 * `{"is_set": …}`.
 */
export interface ExpressionIsSet {
  is_set: Expression;
}
/**
 * `{"is_doc": …}`.
 */
export interface ExpressionIsDoc {
  is_doc: Expression;
}
/**
 * `{"is_lambda": …}`.
 */
export interface ExpressionIsLambda {
  is_lambda: Expression;
}
/**
 * `{"is_collection": …}`.
 */
export interface ExpressionIsCollection {
  is_collection: Expression;
}
/**
 * `{"is_database": …}`.
 */
export interface ExpressionIsDatabase {
  is_database: Expression;
}
/**
 * `{"is_index": …}`.
 */
export interface ExpressionIsIndex {
  is_index: Expression;
}
/**
 * `{"is_function": …}`.
 */
export interface ExpressionIsFunction {
  is_function: Expression;
}
/**
 * `{"is_key": …}`.
 */
export interface ExpressionIsKey {
  is_key: Expression;
}
/**
 * `{"is_token": …}`.
 */
export interface ExpressionIsToken {
  is_token: Expression;
}
/**
 * `{"is_credentials": …}`.
 */
export interface ExpressionIsCredentials {
  is_credentials: Expression;
}
/**
 * `{"is_role": …}`.
 */
export interface ExpressionIsRole {
  is_role: Expression;
}
/**
 * Reverse(array, page or set).
 */
export interface ExpressionReverse {
  reverse: Expression;
}
/**
 * Casefold(string[, normalizer]).
 */
export interface ExpressionCasefold {
  casefold: Expression;
  normalizer?: Expression;
}
/**
 * StartsWith(value, search).
 */
export interface ExpressionStartswith {
  startswith: Expression;
  search: Expression;
}
/**
 * EndsWith(value, search).
 */
export interface ExpressionEndswith {
  endswith: Expression;
  search: Expression;
}
/**
 * ContainsStr(value, search).
 */
export interface ExpressionContainsstr {
  containsstr: Expression;
  search: Expression;
}
/**
 * FindStr(value, find[, start]).
 */
export interface ExpressionFindstr {
  findstr: Expression;
  find: Expression;
  start?: Expression;
}
/**
 * `{"titlecase": …}`.
 */
export interface ExpressionTitlecase {
  titlecase: Expression;
}
/**
 * `{"trim": …}`.
 */
export interface ExpressionTrim {
  trim: Expression;
}
/**
 * `{"ltrim": …}`.
 */
export interface ExpressionLtrim {
  ltrim: Expression;
}
/**
 * `{"rtrim": …}`.
 */
export interface ExpressionRtrim {
  rtrim: Expression;
}
/**
 * Repeat(value[, number]).
 */
export interface ExpressionRepeat {
  repeat: Expression;
  number?: Expression;
}
/**
 * ReplaceStr(value, find, replace).
 */
export interface ExpressionReplacestr {
  replacestr: Expression;
  find: Expression;
  replace: Expression;
}
/**
 * `{"space": …}`.
 */
export interface ExpressionSpace {
  space: Expression;
}
/**
 * SubString(value[, start[, length]]).
 */
export interface ExpressionSubstring {
  substring: Expression;
  start?: Expression;
  length?: Expression;
}
/**
 * ToMicros(time): microseconds since the epoch; an integer argument counts microseconds.
 */
export interface ExpressionToMicros {
  to_micros: Expression;
}
/**
 * ToMillis(time): milliseconds since the epoch, rounded down.
 */
export interface ExpressionToMillis {
  to_millis: Expression;
}
/**
 * ToSeconds(time): seconds since the epoch, rounded down.
 */
export interface ExpressionToSeconds {
  to_seconds: Expression;
}
/**
 * Second(time): the second of the minute in UTC.
 */
export interface ExpressionSecond {
  second: Expression;
}
/**
 * Minute(time): the minute of the hour in UTC.
 */
export interface ExpressionMinute {
  minute: Expression;
}
/**
 * Hour(time): the hour of the day in UTC.
 */
export interface ExpressionHour {
  hour: Expression;
}
/**
 * DayOfMonth(time): the day of the month in UTC.
 */
export interface ExpressionDayOfMonth {
  day_of_month: Expression;
}
/**
 * DayOfWeek(time): the ISO day of the week in UTC, Monday 1 to Sunday 7.
 */
export interface ExpressionDayOfWeek {
  day_of_week: Expression;
}
/**
 * DayOfYear(time): the day of the year in UTC.
 */
export interface ExpressionDayOfYear {
  day_of_year: Expression;
}
/**
 * Month(time): the month in UTC, 1 to 12.
 */
export interface ExpressionMonth {
  month: Expression;
}
/**
 * Year(time): the year in UTC.
 */
export interface ExpressionYear {
  year: Expression;
}
/**
 * TimeAdd(base, offset, unit).
 */
export interface ExpressionTimeAdd {
  time_add: Expression;
  offset: Expression;
  unit: Expression;
}
/**
 * TimeSubtract(base, offset, unit).
 */
export interface ExpressionTimeSubtract {
  time_subtract: Expression;
  offset: Expression;
  unit: Expression;
}
/**
 * TimeDiff(start, finish, unit).
 */
export interface ExpressionTimeDiff {
  time_diff: Expression;
  other: Expression;
  unit: Expression;
}
/**
 * `{"ceil": …}`.
 */
export interface ExpressionCeil {
  ceil: Expression;
}
/**
 * `{"floor": …}`.
 */
export interface ExpressionFloor {
  floor: Expression;
}
/**
 * Round(number[, precision]).
 */
export interface ExpressionRound {
  round: Expression;
  precision?: Expression;
}
/**
 * Trunc(number[, precision]).
 */
export interface ExpressionTrunc {
  trunc: Expression;
  precision?: Expression;
}
/**
 * `{"sign": …}`.
 */
export interface ExpressionSign {
  sign: Expression;
}
/**
 * `{"sqrt": …}`.
 */
export interface ExpressionSqrt {
  sqrt: Expression;
}
/**
 * Pow(base[, exp]).
 */
export interface ExpressionPow {
  pow: Expression;
  exp?: Expression;
}
/**
 * `{"exp": …}`.
 */
export interface ExpressionExp {
  exp: Expression;
}
/**
 * `{"ln": …}`.
 */
export interface ExpressionLn {
  ln: Expression;
}
/**
 * `{"log": …}`.
 */
export interface ExpressionLog {
  log: Expression;
}
/**
 * Hypot(a[, b]).
 */
export interface ExpressionHypot {
  hypot: Expression;
  b?: Expression;
}
/**
 * `{"bitand": …}`.
 */
export interface ExpressionBitand {
  bitand: Expression;
}
/**
 * `{"bitor": …}`.
 */
export interface ExpressionBitor {
  bitor: Expression;
}
/**
 * `{"bitxor": …}`.
 */
export interface ExpressionBitxor {
  bitxor: Expression;
}
/**
 * `{"bitnot": …}`.
 */
export interface ExpressionBitnot {
  bitnot: Expression;
}
/**
 * `{"acos": …}`.
 */
export interface ExpressionAcos {
  acos: Expression;
}
/**
 * `{"asin": …}`.
 */
export interface ExpressionAsin {
  asin: Expression;
}
/**
 * `{"atan": …}`.
 */
export interface ExpressionAtan {
  atan: Expression;
}
/**
 * `{"cos": …}`.
 */
export interface ExpressionCos {
  cos: Expression;
}
/**
 * `{"cosh": …}`.
 */
export interface ExpressionCosh {
  cosh: Expression;
}
/**
 * `{"degrees": …}`.
 */
export interface ExpressionDegrees {
  degrees: Expression;
}
/**
 * `{"radians": …}`.
 */
export interface ExpressionRadians {
  radians: Expression;
}
/**
 * `{"sin": …}`.
 */
export interface ExpressionSin {
  sin: Expression;
}
/**
 * `{"sinh": …}`.
 */
export interface ExpressionSinh {
  sinh: Expression;
}
/**
 * `{"tan": …}`.
 */
export interface ExpressionTan {
  tan: Expression;
}
/**
 * `{"tanh": …}`.
 */
export interface ExpressionTanh {
  tanh: Expression;
}
/**
 * ContainsStrRegex(value, pattern).
 */
export interface ExpressionContainsstrregex {
  containsstrregex: Expression;
  pattern: Expression;
}
/**
 * FindStrRegex(value, pattern[, start[, num_results]]).
 */
export interface ExpressionFindstrregex {
  findstrregex: Expression;
  pattern: Expression;
  start?: Expression;
  num_results?: Expression;
}
/**
 * ReplaceStrRegex(value, pattern, replace[, first]).
 */
export interface ExpressionReplacestrregex {
  replacestrregex: Expression;
  pattern: Expression;
  replace: Expression;
  first?: Expression;
}
/**
 * RegexEscape(value).
 */
export interface ExpressionRegexescape {
  regexescape: Expression;
}
/**
 * NGram(terms[, min[, max]]).
 */
export interface ExpressionNgram {
  ngram: Expression;
  min?: Expression;
  max?: Expression;
}
/**
 * Format(format, ...values): values is an array of values, or a single value.
 */
export interface ExpressionFormat {
  format: Expression;
  values: Expression;
}
/**
 * NextId() (deprecated alias of NewId).
 */
export interface ExpressionNextId {
  next_id: null;
}
/**
 * v4 `@obj`: escapes an object that has a key starting with `@` (wire-facts §1.6); any keys inside.
 */
export interface ObjTag {
  '@obj': {
    [k: string]: V4Value | undefined;
  };
}
/**
 * fauna-conformance.config.json: what a CI run of the suite targets and claims. It never holds a secret, only the NAME of the environment variable that holds it. Relative paths are resolved against the file's folder; command-line flags override every field.
 */
export interface FaunaConformanceConfig {
  /**
   * Optional pointer to this schema for editors.
   */
  $schema?: string;
  target?: {
    /**
     * The server under test; without it (and without --url) the embedded reference server is started.
     */
    url?: string;
    /**
     * Name of the environment variable holding an admin secret of the target (default FAUNA_CONFORMANCE_SECRET).
     */
    secretEnv?: string;
    /**
     * The target's idle interval of periodic stream status events in ms (DEC-011; the reference server's --status-interval). Same as --status-interval. Without it STREAM-STATUS-004 is reported needs-setting.
     */
    statusIntervalMs?: number;
    /**
     * How long the target keeps the events of a collection with history_days 0 (DEC-020; the real service: 900000, 15 minutes). Without it EVT-RETAIN-002, EVT-RETAIN-005 and STREAM-CLOSE-005 are reported skipped with the reason.
     */
    minRetentionMs?: number;
    /**
     * The target's account operations limit for event streams (DEC-016; the reference server's --ops-limit). Same as --ops-limit. Without it LIMIT-OPS-001 is reported needs-setting.
     */
    opsLimit?: number;
    /**
     * The open event streams one secret of the target may hold at once (DEC-043; the reference server's --max-streams-per-secret). Same as --max-streams-per-secret. Without it LIMIT-STREAMS-001 and LIMIT-STREAMS-002 are reported needs-setting.
     */
    maxStreamsPerSecret?: number;
  };
  /**
   * Capability profiles the server implements. Tests of other profiles run and are reported as not-claimed. Default: every profile.
   *
   * @minItems 1
   */
  claims?: [
    'core' | 'auth' | 'abac' | 'indexes' | 'feeds' | 'streams' | 'v4-streams' | 'v4-functions' | 'fql10',
    ...('core' | 'auth' | 'abac' | 'indexes' | 'feeds' | 'streams' | 'v4-streams' | 'v4-functions' | 'fql10')[]
  ];
  /**
   * Path of an expectations file (schemas/expectations.schema.json) listing the server's known failures.
   */
  expectations?: string;
  /**
   * conformance.json of an earlier run (same as --baseline): the reports then say what newly fails, newly passes or fails another way.
   */
  baseline?: string;
  /**
   * Suite areas to run (default: all).
   *
   * @minItems 1
   */
  areas?: [
    'core' | 'auth' | 'indexes' | 'ordering' | 'paging' | 'events',
    ...('core' | 'auth' | 'indexes' | 'ordering' | 'paging' | 'events')[]
  ];
  timeouts?: {
    /**
     * Per-request deadline (default 10000).
     */
    requestMs?: number;
    /**
     * Deadline for each stream event (default 5000).
     */
    streamMs?: number;
  };
  /**
   * Test files in flight at once (same as --concurrency). Default: chosen from the round trip to the target measured before the run (more files for a distant target, whose files mostly wait on the network).
   */
  concurrency?: number;
  /**
   * Seed for every random choice (fast-check, generated names, test order).
   */
  seed?: number;
  /**
   * Where reports are written (default reports).
   */
  reportDir?: string;
  /**
   * Fail when an active MUST requirement of a claimed profile has no passing test (whole suite only).
   */
  failOnUntestedMust?: boolean;
}
/**
 * conformance.json, written by a run of fauna-conformance. Never contains a secret: the target is only its URL, and HTTP exchanges are redacted.
 */
export interface ConformanceReport {
  reportVersion: 1;
  suiteVersion: string;
  specVersion: string;
  target: {
    /**
     * Scheme, host, port and path only; never credentials.
     */
    url: string;
    /**
     * True when the run started the embedded reference server.
     */
    embedded: boolean;
  };
  seed: number;
  runId: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /**
   * The areas selected with --area, or every area.
   */
  areasRun: string[];
  /**
   * True when no --area filter was given; only then are untested MUST requirements judged.
   */
  wholeSuite: boolean;
  /**
   * The shards (i/n) this report covers; empty for an unsharded run.
   */
  shards: string[];
  /**
   * --requirement and --test filters of the run.
   */
  filters: {
    requirement?: string;
    testPattern?: string;
  };
  /**
   * Capability profiles the server claims (default: all).
   */
  claimedProfiles: (
    'core' | 'auth' | 'abac' | 'indexes' | 'feeds' | 'streams' | 'v4-streams' | 'v4-functions' | 'fql10'
  )[];
  allProfiles: ('core' | 'auth' | 'abac' | 'indexes' | 'feeds' | 'streams' | 'v4-streams' | 'v4-functions' | 'fql10')[];
  /**
   * The expectations file used, if any.
   */
  expectationsFile: string | null;
  /**
   * Expectation entries naming tests this run could have run but did not find (renamed or deleted tests).
   */
  unmatchedExpectations: string[];
  policy: {
    /**
     * report: untested MUST requirements are listed but do not fail the run (--allow-untested); fail: they fail the run.
     */
    untestedMust: 'report' | 'fail';
    note: string;
  };
  outcome: 'passed' | 'failed';
  totals: Counts;
  requirementTotals: {
    total: number;
    passed: number;
    failed: number;
    untested: number;
    'not-claimed': number;
    'expected-failure': number;
    'needs-setting': number;
    'not-run': number;
  };
  areas: (Counts & {
    area: string;
    [k: string]: unknown | undefined;
  })[];
  requirements: {
    id: string;
    level: 'MUST' | 'SHOULD' | 'MAY';
    profile: string;
    specStatus: 'active' | 'tentative';
    /**
     * The requirement's statement, as the spec gives it.
     */
    statement: string;
    /**
     * What the requirement rests on: the service description, Fauna's own code and tests, or a decision alone.
     */
    basis: 'sd' | 'core' | 'decision';
    /**
     * Where Fauna's code or tests show the behaviour; empty when none was found.
     */
    evidence: {
      cite: string;
      url: string;
      note?: string;
    }[];
    /**
     * passed: a test passed and none failed; needs-setting: its tests need a target setting the run was not given (see needsSettings); not-run: its tests did not run because the target stopped answering.
     */
    status: 'passed' | 'failed' | 'untested' | 'not-claimed' | 'expected-failure' | 'needs-setting' | 'not-run';
    /**
     * IDs of the tests that claim this requirement.
     */
    tests: string[];
    /**
     * Whether the requirement's profile is claimed.
     */
    claimed: boolean;
  }[];
  /**
   * Every test of the run. A failing test carries its redacted HTTP exchanges (exchanges); the first passing test listed for a requirement that has none yet carries one redacted exchange, long strings and arrays clipped (example), which the spec site shows.
   */
  tests: {
    /**
     * <file> > <suite> > <test>, stable across runs.
     */
    id: string;
    /**
     * Path relative to the package root.
     */
    file: string;
    name: string;
    area: string;
    requirements: string[];
    /**
     * Profiles of the test's requirements; the test counts only when all are claimed.
     */
    profiles: ('core' | 'auth' | 'abac' | 'indexes' | 'feeds' | 'streams' | 'v4-streams' | 'v4-functions' | 'fql10')[];
    /**
     * What the test did; not-run: it did not run, or was cut short, because the run ended when the target stopped answering.
     */
    result: 'passed' | 'failed' | 'skipped' | 'not-run';
    /**
     * The gate's verdict: the result adjusted for capability claims, target settings and the expectations file. failed and unexpected-pass fail the gate; needs-setting (the test needs a target setting the run was not given) and not-run (the run ended before the test could, see targetLost) never do by themselves.
     */
    status:
      | 'passed'
      | 'failed'
      | 'skipped'
      | 'not-claimed'
      | 'expected-failure'
      | 'unexpected-pass'
      | 'needs-setting'
      | 'not-run';
    durationMs: number;
    /**
     * Why the status differs from the result, or what to do about it.
     */
    note?: string;
    error?: string;
    signature?: Signature;
    expectation?: {
      reason: string;
      issue?: string;
    };
    /**
     * A one-line command that replays this test with the same seed.
     */
    replay?: string;
    exchanges?: Exchange[];
    example?: Exchange;
    /**
     * The target setting (needsSettings[].setting) the test could not run without.
     */
    setting?: string;
  }[];
  tagProblems: {
    test: string;
    problem: string;
  }[];
  /**
   * Active MUST requirements without a passing test (only judged when wholeSuite and the target did not stop answering).
   */
  untestedMust: string[];
  /**
   * Errors outside any test: files that failed to load, failing hooks, unhandled errors.
   */
  runErrors: string[];
  /**
   * Target settings the run was not given, each with the requirements of claimed profiles whose tests need it and how to declare it. Listed, never failing the gate.
   */
  needsSettings: {
    setting: string;
    description: string;
    /**
     * The flag to pass, with its value placeholder, e.g. --ops-limit N.
     */
    flag: string;
    env: string;
    configKey: string;
    requirements: string[];
  }[];
  /**
   * Why the run ended early: the target stopped answering. The tests it could not run are not-run.
   */
  targetLost?: string;
  /**
   * Test files the run never started once the target stopped answering (their tests are in no list: the run was cancelled before loading them).
   */
  filesNotStarted?: string[];
  /**
   * How the run fitted the target: its measured round trip and the test files it ran at once.
   */
  network?: {
    /**
     * Median round trip of GET /ping before the run (absent for the embedded server).
     */
    roundTripMs?: number;
    filesInFlight: number;
    /**
     * auto: from the round trip; flag: --concurrency or the config file.
     */
    chosen?: 'auto' | 'flag';
  };
  baseline?: Diff;
}
export interface Counts {
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  notClaimed: number;
  expectedFailure: number;
  unexpectedPass: number;
  needsSetting: number;
  notRun: number;
  [k: string]: unknown | undefined;
}
/**
 * How a failing test failed, with values the server or the run generates normalised out (failure-signature.ts): the last HTTP status and error code the test saw (absent for a property failure, whose last exchange is a shrinking attempt), and the normalised first line of its innermost assertion.
 */
export interface Signature {
  status?: number;
  errorCode?: string;
  assertion?: string;
}
export interface Exchange {
  method: string;
  url: string;
  path: string;
  startedAt: string;
  durationMs: number;
  request: Message;
  response?: {
    status: number;
    headers: {
      [k: string]: string | undefined;
    };
    body?: unknown;
  };
  events?: unknown[];
  error?: string;
}
export interface Message {
  headers: {
    [k: string]: string | undefined;
  };
  body?: unknown;
}
/**
 * What changed since the baseline run given with --baseline.
 */
export interface Diff {
  old: RunRef;
  new: RunRef;
  newlyFailing: DiffChange[];
  newlyPassing: DiffChange[];
  changedSignatures: DiffChange[];
  /**
   * True when a test newly fails or fails another way: the diff command then exits 1.
   */
  regressed: boolean;
}
export interface RunRef {
  file?: string;
  runId: string;
  seed: number;
  startedAt: string;
  outcome: 'passed' | 'failed';
}
export interface DiffChange {
  test: string;
  requirements: string[];
  /**
   * The test's status in the old report, or absent.
   */
  was: string;
  /**
   * The test's status in the new report.
   */
  now: string;
  wasSignature?: Signature;
  signature?: Signature;
}
/**
 * A database record as CreateDatabase and Get return it. Source: SD "Database" (`name` required on creation; `ref` and `ts` returned; other fields not shown). Open: the real service adds fields such as `global_id` and `data`.
 */
export interface Database {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name: string;
  data?: {
    [k: string]: V4Value | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * A document (older term: instance), for example a user, as Create, Get, Update and Replace return it. Source: SD "Document": `ref` `<collection>/<id>`, `ts`, user fields under `data`; `credentials` is accepted by Create, Update and Replace but never returned, so it is forbidden here. Open: the real service renders other top-level fields (for example `ttl`, and `class` for API ≤ 2.0; wire-facts §1.6).
 */
export interface Document {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  data?: {
    [k: string]: V4Value | undefined;
  };
  ttl?: TsTag;
  credentials?: never;
  [k: string]: unknown | undefined;
}
/**
 * An `add` event: sent when a document is added to the set (created in it or updated into it). Source: SD "Event types" and "Event fields" (`type`, `data`, `txn_ts` integer microseconds, `cursor`, `stats`) and wire-facts §4.2. Closed.
 */
export interface EventAdd {
  type: 'add';
  /**
   * The document that triggered the event, tagged (`@doc`), or a plain object of the projected fields when the source query projects; or, when the source maps documents to values that are not objects, that value, tagged (EVT-FIELD-010).
   */
  data:
    | DocTag
    | {
        [k: string]: V10Value | undefined;
      }
    | V10Value;
  txn_ts: number;
  cursor: string;
  stats: Stats;
}
/**
 * v10 `@doc`: a document in event payloads and v10 results, with `id`, `coll` (an `@mod`), `ts` (an `@time`, unlike every other `ts`) and the user fields at top level (SD "Common encoding"; wire-facts §3.1). Named documents such as collection definitions carry `name` instead of `id`.
 */
export interface DocTag {
  '@doc': {
    id?: string;
    name?: string;
    coll: ModTag;
    ts: TimeTag;
    [k: string]: V10Value | string | ModTag | TimeTag | undefined;
  };
}
/**
 * v10 `@mod`: a collection or module by name, e.g. the `coll` of `@doc` (SD "Common encoding"; wire-facts §3.1).
 */
export interface ModTag {
  '@mod': string;
}
/**
 * v10 `@time`: an ISO 8601 timestamp (SD "Common encoding"; wire-facts §3.1).
 */
export interface TimeTag {
  '@time': string;
}
/**
 * v10 `@int`: a 32-bit integer as a decimal string (wire-facts §3.1).
 */
export interface IntTag {
  '@int': string;
}
/**
 * v10 `@long`: a 64-bit integer as a decimal string (wire-facts §3.1).
 */
export interface LongTag {
  '@long': string;
}
/**
 * v10 `@double`: a double as a decimal string, or "NaN", "Infinity", "-Infinity" (wire-facts §3.1).
 */
export interface DoubleTag {
  '@double': string;
}
/**
 * v10 `@ref`: `{"id", "coll"}` or `{"name", "coll"}`; a null document adds `"exists": false` and a `cause` (wire-facts §3.1).
 */
export interface V10RefTag {
  '@ref': {
    id?: string;
    name?: string;
    coll: ModTag;
    exists?: false;
    /**
     * Why a null document is null: "not found", "deleted", "permission denied".
     */
    cause?: string;
  };
}
/**
 * v10 `@set`: a page `{"data", "after"?}` or a bare after-cursor string (wire-facts §3.1).
 */
export interface V10SetTag {
  '@set':
    | string
    | {
        data: V10Value[];
        after?: string;
      };
}
/**
 * v10 `@object`: escapes an object that has a key starting with `@` (wire-facts §3.1).
 */
export interface ObjectTag {
  '@object': {
    [k: string]: V10Value | undefined;
  };
}
/**
 * v10 `@stream`: an event source token, the value `set.eventSource()` returns (SD "Event source token"; wire-facts §3.1).
 */
export interface StreamTag {
  '@stream': string;
}
/**
 * The `stats` of events and feed pages: consumed operations. Source: SD "Event fields" (`read_ops`, `storage_bytes_read`, `compute_ops`, `processing_time_ms` integers; `rate_limits_hit` array) and wire-facts §4 (the strings name limits such as "read").
 */
export interface Stats {
  read_ops: number;
  storage_bytes_read: number;
  compute_ops: number;
  processing_time_ms: number;
  rate_limits_hit: string[];
}
/**
 * An `update` event: sent when a document that stays in the set changes. Source: SD "Event types" and "Event fields" (`type`, `data`, `txn_ts` integer microseconds, `cursor`, `stats`) and wire-facts §4.2. Closed.
 */
export interface EventUpdate {
  type: 'update';
  /**
   * The document that triggered the event, tagged (`@doc`), or a plain object of the projected fields when the source query projects; or, when the source maps documents to values that are not objects, that value, tagged (EVT-FIELD-010).
   */
  data:
    | DocTag
    | {
        [k: string]: V10Value | undefined;
      }
    | V10Value;
  txn_ts: number;
  cursor: string;
  stats: Stats;
}
/**
 * An `remove` event: sent when a document leaves the set (updated out or deleted); `data` describes the document too. Source: SD "Event types" and "Event fields" (`type`, `data`, `txn_ts` integer microseconds, `cursor`, `stats`) and wire-facts §4.2. Closed.
 */
export interface EventRemove {
  type: 'remove';
  /**
   * The document that triggered the event, tagged (`@doc`), or a plain object of the projected fields when the source query projects; or, when the source maps documents to values that are not objects, that value, tagged (EVT-FIELD-010).
   */
  data:
    | DocTag
    | {
        [k: string]: V10Value | undefined;
      }
    | V10Value;
  txn_ts: number;
  cursor: string;
  stats: Stats;
}
/**
 * A `status` event: the first event of a stream, again at every reconnect and periodically while idle. Never in feeds and never with `data`. Source: SD "Event types", "Event fields" and "States and transitions" (a status event is emitted first) and wire-facts §4.2. Closed.
 */
export interface EventStatus {
  type: 'status';
  txn_ts: number;
  cursor: string;
  stats: Stats;
}
/**
 * An `error` event: the source can no longer be consumed; it ends a stream and a feed page. Shape `{"type":"error","error":{"code","message"},"stats"}`, with no `txn_ts` and no `cursor`. Source: SD "Errors" (error event shape; `invalid_start_time`, sample code `invalid_stream_start_time`) and wire-facts §4.2 (codes `invalid_stream_start_time`, `stream_replay_volume_exceeded`, `stream_overflow`, `permission_loss`, `internal_error`, query runtime codes such as `abort`, which adds the tagged `abort` value). Closed.
 */
export interface EventError {
  type: 'error';
  error: EventErrorDetail;
  stats: Stats;
}
/**
 * The error code and message.
 */
export interface EventErrorDetail {
  code: string;
  message: string;
  abort?: V10Value;
}
/**
 * An expectations file: a server's known failures, each by stable test ID with the signature it is expected to fail with. A listed test failing with that signature is an expected failure; failing differently or passing fails the gate.
 */
export interface ConformanceExpectations {
  /**
   * Optional pointer to this schema for editors.
   */
  $schema?: string;
  expectations: {
    /**
     * Stable test ID as in conformance.json: <file> > <suite> > <test>.
     */
    test: string;
    /**
     * How the test is expected to fail; every given field must match, an empty object matches any failure.
     */
    signature: {
      /**
       * HTTP status of the last response the test received.
       */
      status?: number;
      /**
       * Error code of that response (v4 errors[0].code or v10 error.code).
       */
      errorCode?: string;
      /**
       * A part of the failure's normalised assertion (conformance.json's signature.assertion: generated values replaced, compared values reduced to their kind); a raw first line is normalised before it is compared.
       */
      assertion?: string;
    };
    /**
     * Why the server fails this test.
     */
    reason: string;
    /**
     * Where the fix is tracked (URL or ticket).
     */
    issue?: string;
  }[];
}
/**
 * The body of POST /feed/1. Source: SD endpoint 3 (`token` required; `start_ts` integer microseconds, `cursor` string, `page_size` integer; with neither start_ts nor cursor the start is the event source query's timestamp) and wire-facts §4.1 (`start_ts` and `cursor` together are a 400 `invalid_request`; `page_size` 1..16000, default 16).
 */
export interface FeedRequest {
  /**
   * An event source token from `set.eventSource()` / `set.eventsOn()`.
   */
  token: string;
  /**
   * Microseconds since the Unix epoch; events after it (exclusive).
   */
  start_ts?: number;
  /**
   * An event or page cursor; events after it (exclusive).
   */
  cursor?: string;
  page_size?: number;
}
/**
 * The body of a successful POST /feed/1. Source: SD endpoint 3 (`events`, `cursor` for the next page (present when `has_next` is true), `has_next`, `stats`; feeds never contain status events) and wire-facts §4.1 (the cursor is always sent; error events appear inline with HTTP 200 and end the page). Closed.
 */
export interface FeedResponse {
  events: FeedEvent[];
  cursor?: string;
  has_next: boolean;
  stats: Stats;
}
/**
 * A v4 user-defined function record (CreateFunction, Create(Ref("functions"), …), Get, Update, Replace, Delete). Not in the SD; profile v4-functions (DEC-065, spec/requirements/user-functions.md): `ref` (a ref into the `functions` native collection), `ts`, `name`, `body` (the stored lambda, as `@query`), and `data` and `role` when given. `role` is `admin`, `server` or `client`, a role ref, or a list of role refs. Open for service-added fields.
 */
export interface Function {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name: string;
  body: QueryTag;
  data?: {
    [k: string]: V4Value | undefined;
  };
  role?: ('admin' | 'server' | 'client') | Ref | Ref[];
  [k: string]: unknown | undefined;
}
/**
 * An index record as CreateIndex and Get return it. Source: SD "Index" (all fields: `name` (not events, sets, self, instances or _), `source`, `terms`, `values`, `unique`, `serialized`, `partitions` (at most 8, SD "Limits"), `permissions` (`read` may be `public`), `active` (returned: false while building, true when built), `ref`, `ts`). Open: the real service adds fields such as `data`.
 */
export interface Index {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name: string;
  source: Ref | IndexSource | [Ref | IndexSource, ...(Ref | IndexSource)[]];
  terms?: IndexTerm[];
  values?: IndexValue[];
  unique?: boolean;
  serialized?: boolean;
  partitions?: number;
  permissions?: {
    [k: string]: V4Value | undefined;
  };
  active: boolean;
  data?: {
    [k: string]: V4Value | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * A source object of an index. Source: SD "Source object" (`class`: a class ref, set of refs, or the wildcard `_`; `fields` maps a binding name to a transformer, a pure single-argument lambda, rendered as `@query`) and SD "Binding". `collection` is the API ≥ 2.7 wording of `class`; exactly one of the two is present.
 */
export interface IndexSource {
  class?: Ref | SetRef | [Ref, ...Ref[]] | '_';
  collection?: Ref | SetRef | [Ref, ...Ref[]] | '_';
  fields?: {
    [k: string]: QueryTag | undefined;
  };
}
/**
 * A term object of an index: exactly one of `field` (a path within the instance) and `binding` (a binding name from a source object). Source: SD "Term object".
 */
export interface IndexTerm {
  /**
   * A path within the instance, e.g. ["data", "address", "street"]; ["ref"] (or "ref") addresses the top-level ref.
   */
  field?: [string | number, ...(string | number)[]] | string;
  binding?: string;
}
/**
 * A value object of an index: exactly one of `field` and `binding`, and `reverse` (sort this value reversed, default false). Source: SD "Value object".
 */
export interface IndexValue {
  /**
   * A path within the instance, e.g. ["data", "address", "street"]; ["ref"] (or "ref") addresses the top-level ref.
   */
  field?: [string | number, ...(string | number)[]] | string;
  binding?: string;
  reverse?: boolean;
}
/**
 * A key record as read after creation (Get, Paginate over Keys()). Source: SD "Key": `secret` is returned only in the creation response and never shown again, `hashed_secret` is returned. This schema forbids `secret`; use key-created for the CreateKey result.
 */
export interface Key {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name?: string;
  database?: Ref;
  /**
   * `server` (full access to one database), `client` (public clients), `admin` (may manage databases and keys; wire-facts), `server-readonly`, a role ref, or a list of role refs (an empty list is a key with no roles; DEC-044).
   */
  role: ('admin' | 'server' | 'server-readonly' | 'client') | Ref | Ref[];
  hashed_secret: string;
  data?: {
    [k: string]: V4Value | undefined;
  };
  secret?: never;
  [k: string]: unknown | undefined;
}
/**
 * The key record CreateKey returns: the only response that carries the key `secret`. Source: SD "Key" (`secret` returned only in the creation response; `hashed_secret`, `ref`, `ts` returned; `database` is the database the key gives access to, absent for a key on the current database) and SD Authentication rule 8. Open: the real service may add fields.
 */
export interface KeyCreated {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name?: string;
  database?: Ref;
  /**
   * `server` (full access to one database), `client` (public clients), `admin` (may manage databases and keys; wire-facts), `server-readonly`, or role refs.
   */
  role: ('admin' | 'server' | 'server-readonly' | 'client') | Ref | [Ref, ...Ref[]];
  hashed_secret: string;
  data?: {
    [k: string]: V4Value | undefined;
  };
  /**
   * Shown once, never again.
   */
  secret: string;
  [k: string]: unknown | undefined;
}
/**
 * The result of Paginate. Source: SD "Page" (`data`: elements of the page; `after`: cursor of the next page, inclusive; `before`: cursor of the previous page, exclusive) and wire-facts §1.6. Closed: no other keys.
 */
export interface Page {
  data: V4Value[];
  after?: Cursor;
  before?: Cursor;
}
/**
 * The machine-readable index of the normative spec (spec/requirements.json), generated from spec/requirements/*.md and spec/decisions.md by `npm run gen:spec-index`.
 */
export interface RequirementsIndex {
  /**
   * The package version the spec was published with.
   */
  specVersion: string;
  /**
   * The repositories evidence is cited from, each pinned to the commit its line numbers refer to (spec/evidence-sources.json).
   */
  evidenceSources: {
    [k: string]: EvidenceSource | undefined;
  };
  requirements: Requirement[];
  decisions: Decision[];
}
export interface EvidenceSource {
  commit: string;
  url: string;
}
export interface Requirement {
  id: string;
  level: 'MUST' | 'SHOULD' | 'MAY';
  profile: 'core' | 'auth' | 'abac' | 'indexes' | 'feeds' | 'streams' | 'v4-streams' | 'v4-functions' | 'fql10';
  status: 'active' | 'tentative' | 'withdrawn';
  statement: string;
  /**
   * @minItems 1
   */
  source: [string, ...string[]];
  /**
   * Where Fauna's own code or tests show the behaviour (the spec's `Evidence:` line); empty when the line says `none found`.
   */
  evidence: Evidence[];
  /**
   * What the requirement rests on: `sd` when a section of the service description states it, else `core` when Fauna's code or tests show it (drop-in compatibility), else `decision` (a decision of this spec alone).
   */
  basis: 'sd' | 'core' | 'decision';
  file: string;
  anchor: string;
}
export interface Evidence {
  repo: string;
  path: string;
  /**
   * First and last line, in the pinned commit.
   *
   * @minItems 2
   * @maxItems 2
   */
  lines: [number, number];
  /**
   * What the lines show, in the spec's words.
   */
  note?: string;
}
export interface Decision {
  id: string;
  title: string;
  file: string;
  anchor: string;
}
/**
 * A v4 role record (CreateRole, Get). Source: SD Authentication rule 4 (roles carry read/write privileges with predicates, for example by document field; tokens get access according to the roles of their identity) and the v4 role shape the drivers send (wire-facts §1.5 create_role): `name`, `privileges` (each a `resource` ref and `actions` mapping an action to a boolean or a predicate lambda), `membership` (the collections whose documents hold the role, each optionally with a predicate). Only `name` is required of a role: `privileges` and `membership` may be absent, one object or an array, and a privilege may omit `actions` (DEC-041). Open for service-added fields.
 */
export interface Role {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  name: string;
  privileges?: RolePrivilege | RolePrivilege[];
  membership?: RoleMembership | RoleMembership[];
  data?: {
    [k: string]: V4Value | undefined;
  };
  [k: string]: unknown | undefined;
}
/**
 * What a role may do with one resource.
 */
export interface RolePrivilege {
  resource: Ref;
  actions?: {
    create?: boolean | QueryTag;
    delete?: boolean | QueryTag;
    read?: boolean | QueryTag;
    write?: boolean | QueryTag;
    history_read?: boolean | QueryTag;
    history_write?: boolean | QueryTag;
    unrestricted_read?: boolean | QueryTag;
    call?: boolean | QueryTag;
    create_with_id?: boolean | QueryTag;
  };
}
/**
 * A collection whose documents, used as identities, hold the role.
 */
export interface RoleMembership {
  resource: Ref;
  predicate?: QueryTag;
}
/**
 * The body of POST /stream/1. Source: SD endpoint 4 (`token` required; optionally `start_ts` (integer microseconds) or `cursor` (string), mutually exclusive) and wire-facts §4.2 (fauna-js sends `{token}` and on reconnect `{token, cursor}`).
 */
export interface StreamRequest {
  /**
   * An event source token from `set.eventSource()` / `set.eventsOn()`.
   */
  token: string;
  /**
   * Microseconds since the Unix epoch; events after it (exclusive).
   */
  start_ts?: number;
  /**
   * An event or page cursor; events after it (exclusive).
   */
  cursor?: string;
}
/**
 * The token record Login returns, the only response that carries the token `secret`. Source: SD "Token" (created by Login; `ref` in the tokens collection, `ts`, `instance` the document the token belongs to, optional `data` copied from the Login `data` argument, `secret` returned only by Login, only once) and SD Authentication rules 5 and 8.
 */
export interface TokenLogin {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  instance: Ref;
  data?: {
    [k: string]: V4Value | undefined;
  };
  ttl?: TsTag;
  hashed_secret?: string;
  secret: string;
  [k: string]: unknown | undefined;
}
/**
 * The resource GET /tokens/self returns for a token secret. Source: SD endpoint 2 (`{"resource": {ref, ts, instance, hashed_secret, data?}}`; `secret` is not returned) and wire-facts §2 (optional `ttl`; `global_id` is never rendered). This is the inner resource; the body is `{"resource": <this>}`. Forbids `secret`.
 */
export interface TokenSelf {
  ref: Ref;
  /**
   * Microseconds since the Unix epoch.
   */
  ts: number;
  instance: Ref;
  data?: {
    [k: string]: V4Value | undefined;
  };
  ttl?: TsTag;
  hashed_secret: string;
  secret?: never;
  [k: string]: unknown | undefined;
}
/**
 * The body of a failed v10 request (/query/1, /feed/1, /stream/1 before the stream starts): `{"error": {code, message, constraint_failures?, abort?}, summary?, txn_ts?, stats?, schema_version?}`. Source: wire-facts §3 (query failures carry summary, txn_ts, stats and schema_version; protocol errors such as 401 `unauthorized` and 400 `invalid_request` carry only `error`) and §4.1/§4.2 (feed and stream request errors).
 */
export interface V10Error {
  error: V10ErrorDetail;
  summary?: string;
  txn_ts?: number;
  stats?: V10QueryStats;
  schema_version?: number;
}
/**
 * What went wrong: a code (`invalid_request`, `unauthorized`, `invalid_query`, `abort`, …) and a message.
 */
export interface V10ErrorDetail {
  code: string;
  message: string;
  constraint_failures?: {
    paths?: (string | number)[][];
    message: string;
    name?: string;
  }[];
  abort?: V10Value;
}
/**
 * The `stats` object of a /query/1 response or error. Source: wire-facts §3 (compute_ops, read_ops, write_ops, query_time_ms, contention_retries, storage_bytes_read, storage_bytes_write, rate_limits_hit). Not the event `stats` (see stats.schema.json).
 */
export interface V10QueryStats {
  compute_ops: number;
  read_ops: number;
  write_ops: number;
  query_time_ms: number;
  contention_retries: number;
  storage_bytes_read: number;
  storage_bytes_write: number;
  rate_limits_hit: string[];
}
/**
 * The body of POST /query/1: `{"query": <FQL string or fragment>, "arguments"?: {<name>: <value>}}`. Source: wire-facts §3 (fauna-js always sends the `{"fql": [...]}` fragment form; fragments are strings, `{"value": <tagged>}`, nested `{"fql": [...]}`, `{"object": {...}}` and `{"array": [...]}`) and driver-captures. The SD leaves the FQL endpoint not shown.
 */
export interface V10QueryRequest {
  query: string | FQLFragment;
  arguments?: {
    [k: string]: V10Value | undefined;
  };
}
/**
 * An FQL template: text and interpolated parts.
 */
export interface FQLFragment {
  fql: FQLFragmentPart[];
}
/**
 * The body of a successful POST /query/1. Source: wire-facts §3 (`data`, `txn_ts`, `summary`, `stats`, `schema_version`; `static_type` only when typechecked; `query_tags` only when sent) and driver-captures (an event source comes back as `{"@stream": <token>}`).
 */
export interface V10QueryResponse {
  data: V10Value;
  txn_ts: number;
  summary: string;
  stats: V10QueryStats;
  schema_version: number;
  static_type?: string;
  query_tags?: string;
}
/**
 * The body of a failed v4 query: `{"errors": [{position, code, description, failures?, cause?}, …]}`. Source: SD "Errors" (Login with a document not found or a wrong password: error objects with `position`, `code` `authentication failed`, `description`) and wire-facts §1.4 (codes such as `invalid expression`, `invalid ref`, `instance not found`, `instance already exists`, `validation failed`, `permission denied`; 404 for not-found codes, 403 for permission denied, 400 otherwise).
 */
export interface V4QueryError {
  /**
   * @minItems 1
   */
  errors: [V4QueryErrorItem, ...V4QueryErrorItem[]];
}
/**
 * One query error. `position` is the path into the request expression (`[]` for the top level); `failures` only for `validation failed`; `cause` (nested errors) for call errors and the like.
 */
export interface V4QueryErrorItem {
  position: (string | number)[];
  code: string;
  description: string;
  failures?: V4ValidationFailure[];
  cause?: V4QueryErrorItem[];
}
/**
 * One field that failed validation.
 */
export interface V4ValidationFailure {
  field: (string | number)[];
  code: string;
  description: string;
}
/**
 * The body of a v4 error raised before or outside evaluation: `{"errors": [{code, description}]}` with NO `position`. Source: SD endpoint 2 and "Errors" (invalid secret: `{"errors":[{"code":"unauthorized","description":<text>}]}`) and wire-facts §1.4 (401 `unauthorized`, 404 `not found`, 405 `method not allowed`, 409 `contended transaction` which may carry the contended `ref`, 410, 413, 429, 500, 503, …).
 */
export interface V4ProtocolError {
  /**
   * @minItems 1
   */
  errors: [V4ProtocolErrorItem, ...V4ProtocolErrorItem[]];
}
/**
 * One protocol error; never has a position.
 */
export interface V4ProtocolErrorItem {
  code: string;
  description: string;
  ref?: Ref;
}
/**
 * The first event: `txn` and `event` are the same time, no later than any following event's `txn`.
 */
export interface V4StreamStartEvent {
  type: 'start';
  txn: TransactionTime;
  event: TransactionTime;
}
/**
 * A write of the streamed document: `action` create, update (also for Replace) or delete; `document` the version written (for a delete, the deleted data); `diff` the changed fields (removed ones null); `prev` the previous version.
 */
export interface V4StreamVersionEvent {
  type: 'version' | 'history_rewrite';
  txn: TransactionTime;
  event: V4VersionEventBody;
}
export interface V4VersionEventBody {
  action?: 'create' | 'update' | 'delete';
  document?: Document;
  diff?: Document;
  prev?: Document;
}
/**
 * A document entering (`add`) or leaving (`remove`) a streamed Match or Documents set; `document` holds only its ref and the event's time; `index` the index entry (absent for Documents sets).
 */
export interface V4StreamSetEvent {
  type: 'set';
  txn: TransactionTime;
  event: V4SetEventBody;
}
export interface V4SetEventBody {
  action?: 'add' | 'remove';
  document?: DocumentHead;
  index?: V4SetEventIndexEntry;
}
/**
 * A document's ref and the time of the version shown.
 */
export interface DocumentHead {
  ref: Ref;
  ts: TransactionTime;
}
export interface V4SetEventIndexEntry {
  ref: Ref;
  terms: V4Value[];
  values: V4Value[];
}
/**
 * The stream cannot go on (for example `permission denied` when the secret is revoked); the response ends after it.
 */
export interface V4StreamErrorEvent {
  type: 'error';
  txn: TransactionTime;
  event: V4StreamErrorDetail;
}
export interface V4StreamErrorDetail {
  code: string;
  description: string;
}
/**
 * The body of every successful POST / (and GET /tokens/self, GET /ping): `{"resource": <value>}` and nothing else. Source: SD "Common encoding" and endpoint 1; wire-facts §1.1 (status 201 when the result is a freshly created document, 200 otherwise).
 */
export interface V4Success {
  resource: V4Value;
}
