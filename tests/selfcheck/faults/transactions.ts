// The faults of spec/requirements/transactions.md that are code; their rows (ids, titles, what they break) are in transactions.json.
import type { ProxiedRequest } from '../fault.js';
import { isJsonInteger, isJsonObject, jsonInt, stringifyJson, type JsonObject } from '../json-body.js';
import { answerError, refKey, topLevel } from './lib/records.js';
import {
  bodyJson,
  expressionUses,
  hasErrorCode,
  isV4Query,
  onJson,
  records,
  rewriteResponse,
  topLevelForm,
  withHeader,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';
import { isLosslessNumber } from 'lossless-json';

const WRITE_FORMS = [
  'create',
  'update',
  'replace',
  'delete',
  'insert',
  'remove',
  'create_collection',
  'create_class',
  'create_database',
  'create_key',
  'create_index',
  'create_role',
  'create_function',
  'login',
  'logout',
];

function writes(request: ProxiedRequest): boolean {
  return WRITE_FORMS.some((form) => expressionUses(request, form));
}

/** Counts the requests in flight per key; `enter` answers how many were in flight before this one. */
class InFlight {
  private readonly counts = new Map<string, number>();

  enter(key: string): number {
    const before = this.counts.get(key) ?? 0;
    this.counts.set(key, before + 1);
    return before;
  }

  leave(key: string): void {
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 1) - 1));
  }

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

export const code: FaultCode = {
  'TXN-TS-GOES-BACKWARDS': () => {
    let shift = 0n;
    return {
      response: rewriteResponse(
        (res, ctx) => isV4Query(ctx.original) && /^\d+$/.test(res.headers['x-txn-time'] ?? ''),
        (res) => {
          shift += 1_000_000n;
          const body = bodyJson(res);
          for (const record of records(body)) {
            if (isLosslessNumber(record.ts) && isJsonInteger(record.ts)) record.ts = jsonInt(BigInt(String(record.ts)) - shift);
          }
          const shifted = withHeader(res, 'x-txn-time', (BigInt(res.headers['x-txn-time']!) - shift).toString());
          return body === undefined ? shifted : { ...shifted, body: Buffer.from(stringifyJson(body)) };
        },
      ),
    };
  },
  'TXN-TS-PER-WRITE': onJson(
    (body, ctx) => writes(ctx.original) && Array.isArray(isJsonObject(body) ? body.resource : undefined),
    (body) => {
      const written = ((body as JsonObject).resource as unknown[]).filter(
        (item): item is JsonObject => isJsonObject(item) && isJsonInteger(item.ts),
      );
      written.forEach((record, index) => {
        record.ts = jsonInt(BigInt(String(record.ts)) + BigInt(index));
      });
      return Math.max(0, written.length - 1);
    },
  ),
  'TXN-CONC-LOST-UPDATE': () => {
    const inFlight = new InFlight();
    const target = (req: ProxiedRequest) => {
      const expression = topLevel(req);
      return expression !== undefined && 'update' in expression ? refKey(expression.update) : undefined;
    };
    return {
      request: (req) => {
        const key = target(req);
        if (key === undefined || inFlight.enter(key) === 0) return undefined;
        return { ...req, body: Buffer.from(stringifyJson({ get: topLevel(req)!.update })) };
      },
      response: (_res, ctx) => {
        const key = target(ctx.original);
        if (key !== undefined) inFlight.leave(key);
        return undefined;
      },
    };
  },
  'TXN-CONC-UNIQUE-RACE-500': () => {
    const inFlight = new InFlight();
    const isCreate = (req: ProxiedRequest) => topLevelForm(req) === 'create';
    return {
      request: (req) => {
        if (isCreate(req)) inFlight.enter('create');
        return undefined;
      },
      response: (res, ctx) => {
        if (!isCreate(ctx.original)) return undefined;
        inFlight.leave('create');
        if (inFlight.count('create') === 0 || !hasErrorCode(bodyJson(res), 'instance not unique')) return undefined;
        return withStatus(
          withJsonBody(res, { errors: [{ code: 'internal server error', description: 'Unique constraint violated during commit.' }] }),
          500,
        );
      },
    };
  },
  'TXN-CONC-CREATES-CONTENDED': () => {
    const inFlight = new InFlight();
    const contended = new WeakSet<ProxiedRequest>();
    const target = (req: ProxiedRequest) => {
      const expression = topLevel(req);
      const key = expression !== undefined && 'create' in expression ? refKey(expression.create) : undefined;
      return key?.startsWith('collections/') ? key : undefined;
    };
    return {
      request: (req) => {
        const key = target(req);
        if (key === undefined || inFlight.enter(key) === 0) return undefined;
        const forwarded = { ...req, body: Buffer.from('{"equals":[1,1]}') };
        contended.add(forwarded);
        return forwarded;
      },
      response: (res, ctx) => {
        const key = target(ctx.original);
        if (key !== undefined) inFlight.leave(key);
        if (!contended.has(ctx.request)) return undefined;
        return answerError(res, 409, 'contended transaction', 'Transaction was aborted due to detection of concurrent modification.');
      },
    };
  },
};
