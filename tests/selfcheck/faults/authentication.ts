// The faults of spec/requirements/authentication.md that are code; their rows (ids, titles, what they break) are in authentication.json.
import type { BufferedResponse } from '../fault.js';
import { stringifyJson, type JsonObject } from '../json-body.js';
import { answersForm, topObject, unauthorized, withLedgers } from './lib/access.js';
import { requestSecret } from './lib/key-ledger.js';
import {
  isV4Query,
  nativeCollectionOf,
  onJson,
  pathname,
  records,
  renameKeys,
  rewriteJson,
  topLevelForm,
  v4Resource,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';
import { createHash } from 'node:crypto';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Renders every ref payload under `value` in the legacy `class` form instead of `collection`. */
function legacyRefs(value: unknown): number {
  return renameKeys(value, 'collection', 'class', (object) => 'id' in object);
}

export const code: FaultCode = {
  'AUTH-SELF-RETURNS-SECRET': onJson(
    (body, ctx) =>
      pathname(ctx.original) === '/tokens/self' &&
      ctx.status === 200 &&
      v4Resource(body) !== undefined &&
      requestSecret(ctx.original) !== undefined,
    (body, ctx) => {
      v4Resource(body)!.secret = requestSecret(ctx.original)!;
    },
  ),
  'AUTH-CURRENT-IDENTITY-LEGACY-REF': onJson(
    (_body, ctx) => answersForm('current_identity', 200, ctx),
    (body) => legacyRefs((body as JsonObject).resource),
  ),
  'AUTH-LOGOUT-BLOCKS-USER': withLedgers((ledgers) => {
    const loggedOut = new Set<string>();
    return {
      response: (res, ctx) => {
        const token = ledgers.tokens.ofRequest(ctx.original);
        if (token === undefined) return undefined;
        const user = stringifyJson(token.instance ?? null);
        if (loggedOut.has(user)) return unauthorized(res);
        if (res.status === 200 && topLevelForm(ctx.original) === 'logout' && topObject(ctx.original)?.logout === true) loggedOut.add(user);
        return undefined;
      },
    };
  }),
  'AUTH-SELF-UNWRAPPED': () => ({
    json: (body, ctx) => (pathname(ctx.original) === '/tokens/self' && ctx.status === 200 ? v4Resource(body) : undefined),
  }),
  'AUTH-SELF-LEGACY-REFS': onJson(
    (_body, ctx) => pathname(ctx.original) === '/tokens/self' && ctx.status === 200,
    (body) => legacyRefs(body),
  ),
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
  'AUTH-TOKEN-GET-SHOWS-SECRET': withLedgers((ledgers) => ({
    json: rewriteJson(
      (_body, ctx) => isV4Query(ctx.original),
      (body) =>
        records(body).reduce((n, record) => {
          const token = nativeCollectionOf(record) === 'tokens' && !('secret' in record) ? ledgers.tokens.byRef(record.ref) : undefined;
          if (token === undefined) return n;
          record.secret = token.secret;
          return n + 1;
        }, 0),
    ),
  })),
  'AUTH-SELF-HASHED-SECRET-SHA256': onJson(
    (body, ctx) =>
      pathname(ctx.original) === '/tokens/self' &&
      ctx.status === 200 &&
      typeof v4Resource(body)?.hashed_secret === 'string' &&
      requestSecret(ctx.original) !== undefined,
    (body, ctx) => {
      v4Resource(body)!.hashed_secret = sha256Hex(requestSecret(ctx.original)!);
    },
  ),
};
