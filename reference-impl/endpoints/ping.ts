/**
 * `GET /ping?scope=…`: liveness, as the real service answers it (fauna/faunadb `api/fql1/UtilRoutes.scala`; DEC-133):
 * no secret needed; `write` when no scope is given; `global` and `local` are the old names of `write` and `read`; any
 * other scope is the node's own. `HEAD` answers as `GET`, without the body.
 */
import { baseHeaders } from './responses.js';
import type { Endpoint, RequestContext } from './route-table.js';

const SCOPE_ALIASES: Readonly<Record<string, string>> = { all: 'all', write: 'write', read: 'read', global: 'write', local: 'read' };

function answer(ctx: RequestContext, withBody: boolean): undefined {
  const scope = SCOPE_ALIASES[ctx.exchange.request.query.get('scope') ?? 'write'] ?? 'node';
  ctx.exchange.respond(200, baseHeaders(ctx), withBody ? JSON.stringify({ resource: `Scope ${scope} is OK` }) : '');
  return undefined;
}

// Implements: PROTO-ENDPOINT-002, PROTO-ENDPOINT-009
export const pingEndpoint: Endpoint = {
  path: '/ping',
  auth: 'none',
  errors: 'v4',
  methods: { GET: (ctx) => answer(ctx, true), HEAD: (ctx) => answer(ctx, false) },
};
