/** `GET /ping?scope=node|read|write|all`: liveness, no auth. */
import { baseHeaders, sendProtocolError } from './responses.js';
import type { Endpoint } from './route-table.js';

const SCOPES = new Set(['node', 'read', 'write', 'all']);

export const pingEndpoint: Endpoint = {
  path: '/ping',
  auth: 'none',
  errors: 'v4',
  methods: {
    async GET(ctx) {
      const scope = ctx.exchange.request.query.get('scope') ?? 'node';
      if (!SCOPES.has(scope)) {
        sendProtocolError(ctx, 'v4', 400, 'invalid url parameter', `Invalid scope '${scope}'.`);
        return;
      }
      ctx.exchange.respond(200, baseHeaders(ctx), JSON.stringify({ resource: `Scope ${scope} is OK` }));
    },
  },
};
