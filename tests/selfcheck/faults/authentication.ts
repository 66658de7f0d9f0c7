// The faults of spec/requirements/authentication.md that are code; their rows (ids, titles, what they break) are in authentication.json.
import type { BufferedResponse } from '../fault.js';
import { requestSecret } from './lib/key-ledger.js';
import { pathname } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'AUTH-SELF-CACHED': () => {
    const answered = new Map<string, BufferedResponse>();
    return {
      response: (res, ctx) => {
        const secret = requestSecret(ctx.original);
        if (pathname(ctx.original) !== '/tokens/self' || secret === undefined) return undefined;
        if (res.status === 200) answered.set(secret, res);
        return res.status === 401 ? answered.get(secret) : undefined;
      },
    };
  },
};
