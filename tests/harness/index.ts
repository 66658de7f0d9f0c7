export { check, type CheckBody, type CheckOptions } from './check.js';
export {
  Client,
  HttpFailure,
  StreamRejectedError,
  type AuthScheme,
  type ClientTarget,
  type FqlOptions,
  type QueryOptions,
  type RequestOptions,
} from './client.js';
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_TIMEOUT_MS,
  ENV,
  settingsFromEnv,
  type SuiteSettings,
  type Target,
} from './config.js';
export { uniqueId, uniqueName } from './names.js';
export { REDACTED, redactHeaders, redactString, redactValue, registerSecret } from './redaction.js';
export { Response } from './response.js';
export { responseSchemaFor, SchemaMismatchError } from './response-schemas.js';
export { StreamEndedError, StreamReader, StreamTimeoutError } from './stream-reader.js';
export { rootClient, target } from './target.js';
export { useTenant, type KeyRole, type Tenant, type TenantOptions } from './tenant.js';
export { formatExchanges, observeExchanges, redactExchanges, type Exchange } from './transcript.js';
export { decimal, parseWireJson, stringifyWireJson } from './wire-json.js';
