// The faults of spec/requirements/document-ttl.md that are code; their rows (ids, titles, what they break) are in document-ttl.json.
import type { FaultHooks, ProxiedRequest } from '../fault.js';
import { forEachObject, isJsonObject, jsonInt, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import {
  bodyJson,
  hasErrorCode,
  onExpression,
  onResponse,
  rewriteExpression,
  rewriteJson,
  rewriteResponse,
  topLevelForm,
  v4Errors,
  v4Expression,
  withJsonBody,
  withStatus,
} from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

/** Past ttls moved to unique stand-ins far ahead (`2998-…`), and back. */
class TtlShift {
  private readonly originals = new Map<string, string>();

  /**
   * The request with each past `ttl` time literal replaced, or undefined when it has none. The body is parsed afresh:
   * the expression `v4Expression` keeps for the request stays as the suite sent it.
   */
  shiftRequest(request: ProxiedRequest): ProxiedRequest | undefined {
    if (v4Expression(request) === undefined) return undefined;
    const parsed = tryParseJson(request.body);
    if (!parsed.ok || this.shift(parsed.value) === 0) return undefined;
    return { ...request, body: Buffer.from(stringifyJson(parsed.value)) };
  }

  private shift(expression: unknown): number {
    let shifted = 0;
    forEachObject(expression, (object) => {
      const ttl = object.ttl;
      if (!isJsonObject(ttl) || typeof ttl['@ts'] !== 'string' || !(Date.parse(ttl['@ts']) <= Date.now())) return;
      const standIn = `2998-01-01T00:00:00.${String(this.originals.size + 1).padStart(6, '0')}Z`;
      this.originals.set(standIn, ttl['@ts']);
      ttl['@ts'] = standIn;
      shifted++;
    });
    return shifted;
  }

  /** Puts the original times back in an answer; answers how many it restored. */
  restore(body: unknown): number {
    let restored = 0;
    forEachObject(body, (object) => {
      const original = typeof object['@ts'] === 'string' ? this.originals.get(object['@ts']) : undefined;
      if (original === undefined) return;
      object['@ts'] = original;
      restored++;
    });
    return restored;
  }

  /** True for a record whose `ttl` is a stand-in: a document the suite believes expired. */
  isExpiredRecord(value: unknown): boolean {
    return isJsonObject(value) && isJsonObject(value.ttl) && typeof value.ttl['@ts'] === 'string' && this.originals.has(value.ttl['@ts']);
  }
}

/** The hooks of a server that keeps documents whose ttl has passed (for every read and write). */
function neverExpires(shift: TtlShift): FaultHooks {
  return {
    request: (request) => shift.shiftRequest(request),
    json: rewriteJson(
      () => true,
      (body) => shift.restore(body),
    ),
  };
}

/** `"<collection>/<id>"` of a request ref `{"ref": {"collection": c}, "id": i}`, if it is one. */
function requestRefKey(value: unknown): string | undefined {
  if (!isJsonObject(value) || typeof value.id !== 'string' || !isJsonObject(value.ref) || typeof value.ref.collection !== 'string')
    return undefined;
  return `${value.ref.collection}/${value.id}`;
}

/** `"<collection>/<id>"` of a document ref as answered (`{"@ref": {"id", "collection": {"@ref": {"id"}}}}`). */
function answeredRefKey(value: unknown): string | undefined {
  const payload = isJsonObject(value) && isJsonObject(value['@ref']) ? value['@ref'] : undefined;
  const parent =
    payload !== undefined && isJsonObject(payload.collection) && isJsonObject(payload.collection['@ref'])
      ? payload.collection['@ref']
      : undefined;
  return typeof payload?.id === 'string' && typeof parent?.id === 'string' ? `${parent.id}/${payload.id}` : undefined;
}

/** Documents the suite created with a past ttl and a chosen id, by `"<collection>/<id>"`, as answered. */
class ExpiredLedger {
  readonly keys = new Set<string>();

  /** Records a top-level Create with a past ttl that the server answered 201. */
  note(request: ProxiedRequest, status: number, body: unknown): void {
    const expression = v4Expression(request);
    if (status !== 201 || !isJsonObject(expression) || !('create' in expression) || !hasPastTtl(expression.params)) return;
    const key = requestRefKey(expression.create);
    if (key !== undefined) this.keys.add(key);
    const answered = isJsonObject(body) && isJsonObject(body.resource) ? answeredRefKey(body.resource.ref) : undefined;
    if (answered !== undefined) this.keys.add(answered);
  }
}

function hasPastTtl(params: unknown): boolean {
  let past = false;
  forEachObject(params, (object) => {
    const ttl = object.ttl;
    if (isJsonObject(ttl) && typeof ttl['@ts'] === 'string' && Date.parse(ttl['@ts']) <= Date.now()) past = true;
  });
  return past;
}

/** The string values of the `data` objects in a Create's params. */
function dataStrings(params: unknown): string[] {
  const strings: string[] = [];
  forEachObject(params, (object) => {
    if (!isJsonObject(object.data)) return;
    const fields = isJsonObject(object.data.object) ? object.data.object : object.data;
    for (const value of Object.values(fields)) if (typeof value === 'string') strings.push(value);
  });
  return strings;
}

/** Days a ttl computed in the query is moved ahead by DOC-TTL-COMPUTED-NEVER-PASSES: far past any test's wait. */
const COMPUTED_TTL_DELAY_DAYS = 100_000;

/** Whole days keep the time of day, so an answered time moves back exactly, microseconds included. */
function daysEarlier(iso: string, days: number): string {
  const date = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return `${date.toISOString().slice(0, 10)}${iso.slice(10)}`;
}

const NOT_FOUND_BODY = { errors: [{ position: [], code: 'instance not found', description: 'Document not found.' }] };

export const code: FaultCode = {
  'DOC-TTL-NEVER-EXPIRES': () => neverExpires(new TtlShift()),
  'DOC-TTL-GET-ONLY': () => {
    const shift = new TtlShift();
    const ledger = new ExpiredLedger();
    return {
      request: (request) => shift.shiftRequest(request),
      json: (body, context) => {
        ledger.note(context.original, context.status, body);
        const expression = v4Expression(context.original);
        const resource = isJsonObject(body) ? body.resource : undefined;
        if (isJsonObject(expression) && 'get' in expression && !('ts' in expression) && shift.isExpiredRecord(resource))
          return NOT_FOUND_BODY;
        let changed = shift.restore(body);
        const calls = Array.isArray(expression) ? expression : [expression];
        const answers = Array.isArray(expression) ? resource : [resource];
        if (Array.isArray(answers)) {
          calls.forEach((call, i) => {
            if (!isJsonObject(call) || !('exists' in call) || answers[i] !== true || !ledger.keys.has(requestRefKey(call.exists) ?? ''))
              return;
            answers[i] = false;
            changed++;
          });
          if (!Array.isArray(expression) && isJsonObject(body) && answers[0] === false && resource === true) body.resource = false;
        }
        return changed > 0 ? body : undefined;
      },
      response: rewriteResponse(
        (res) => res.status === 200 && hasErrorCode(bodyJson(res), 'instance not found'),
        (res) => withStatus(res, 404),
      ),
    };
  },
  'DOC-TTL-COMPUTED-NEVER-PASSES': () => ({
    request: rewriteExpression((expression) => {
      let delayed = 0;
      forEachObject(expression, (object) => {
        if (!isJsonObject(object.ttl) || '@ts' in object.ttl) return;
        object.ttl = { time_add: object.ttl, offset: COMPUTED_TTL_DELAY_DAYS, unit: 'days' };
        delayed++;
      });
      return delayed;
    }),
    json: rewriteJson(
      () => true,
      (body) => {
        let restored = 0;
        forEachObject(body, (object) => {
          const ttl = object.ttl;
          if (!isJsonObject(ttl) || typeof ttl['@ts'] !== 'string' || Number(ttl['@ts'].slice(0, 4)) < 2200) return;
          ttl['@ts'] = daysEarlier(ttl['@ts'], COMPUTED_TTL_DELAY_DAYS);
          restored++;
        });
        return restored;
      },
    ),
  }),
  'DOC-TTL-WRITES-REVIVE': () => {
    const ledger = new ExpiredLedger();
    return {
      json: (body, context) => {
        ledger.note(context.original, context.status, body);
        return undefined;
      },
      response: rewriteResponse(
        (res, context) => {
          const form = topLevelForm(context.original);
          const target = form === 'update' || form === 'replace' ? (v4Expression(context.original) as JsonObject)[form] : undefined;
          return res.status === 404 && ledger.keys.has(requestRefKey(target) ?? '');
        },
        (res, context) => {
          const expression = v4Expression(context.original) as JsonObject;
          return withStatus(
            withJsonBody(res, { resource: { ref: expression.update ?? expression.replace, ts: jsonInt(Date.now() * 1000), data: {} } }),
            200,
          );
        },
      ),
    };
  },
  'DOC-TTL-ID-STAYS-TAKEN': () => {
    const ledger = new ExpiredLedger();
    return {
      json: (body, context) => {
        const expression = v4Expression(context.original);
        const key = isJsonObject(expression) && topLevelForm(context.original) === 'create' ? requestRefKey(expression.create) : undefined;
        if (key !== undefined && ledger.keys.has(key) && context.status === 201) {
          return { errors: [{ position: ['create'], code: 'instance already exists', description: 'Document already exists.' }] };
        }
        ledger.note(context.original, context.status, body);
        return undefined;
      },
      response: rewriteResponse(
        (res) => res.status === 201 && hasErrorCode(bodyJson(res), 'instance already exists'),
        (res) => withStatus(res, 400),
      ),
    };
  },
  'DOC-TTL-UNIQUE-COUNTS-EXPIRED': () => {
    const expiredStrings = new Set<string>();
    return {
      json: (_body, context) => {
        const expression = v4Expression(context.original);
        if (context.status !== 201 || !isJsonObject(expression) || !('create' in expression)) return undefined;
        const strings = dataStrings(expression.params);
        if (hasPastTtl(expression.params)) {
          for (const value of strings) expiredStrings.add(value);
          return undefined;
        }
        if (!strings.some((value) => expiredStrings.has(value))) return undefined;
        return { errors: [{ position: ['create'], code: 'instance not unique', description: 'Document is not unique.' }] };
      },
      response: rewriteResponse(
        (res) => res.status === 201 && hasErrorCode(bodyJson(res), 'instance not unique'),
        (res) => withStatus(res, 400),
      ),
    };
  },
  'DOC-TTL-NULL-IGNORED': onExpression((expression) => {
    if (!isJsonObject(expression) || !('update' in expression)) return 0;
    let removed = 0;
    forEachObject(expression.params, (object: JsonObject) => {
      if ('ttl' in object && object.ttl === null) {
        delete object.ttl;
        removed++;
      }
    });
    return removed;
  }),
  'DOC-TTL-TYPE-UNCHECKED': onResponse(
    (res, context) =>
      res.status === 400 &&
      topLevelForm(context.original) === 'create' &&
      v4Errors(bodyJson(res)).some(
        (e) => Array.isArray(e.failures) && e.failures.some((f) => isJsonObject(f) && Array.isArray(f.field) && f.field[0] === 'ttl'),
      ),
    (res, context) => {
      const expression = v4Expression(context.original) as JsonObject;
      return withStatus(withJsonBody(res, { resource: { ref: expression.create, ts: jsonInt(Date.now() * 1000), data: {} } }), 201);
    },
  ),
};
