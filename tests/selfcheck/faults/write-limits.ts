// Faults of the write limits (LIMIT-WRITE; spec/requirements/limits.md, DEC-070): servers that bound the size of
// what a query writes wrongly in one plausible way each.
import type { Fault, ProxiedRequest } from '../fault.js';
import { isJsonObject, stringifyJson, tryParseJson, type JsonObject } from '../json-body.js';
import { bodyJson, forwardInstead, rewriteResponse, v4Errors, withJsonBody, withStatus } from './lib/rewrites.js';

const MIB = 1024 * 1024;

/** A v4 query as large as the suite's large writes: a body past `bytes`. */
function largeQuery(request: ProxiedRequest, bytes: number): boolean {
  return request.method === 'POST' && request.path === '/' && request.body.length > bytes;
}

/**
 * The top-level `{"let": …, "in": {"do": [...]}}` of a request, when it has that shape (parsed here: the shared
 * parse skips bodies as large as these).
 */
function letOfDo(request: ProxiedRequest): { expression: JsonObject; steps: unknown[] } | undefined {
  const parsed = tryParseJson(request.body);
  const expression = parsed.ok ? parsed.value : undefined;
  if (!isJsonObject(expression) || !('let' in expression) || !isJsonObject(expression.in) || !Array.isArray(expression.in.do)) return undefined;
  return { expression, steps: expression.in.do };
}

export const WRITE_LIMIT_FAULTS: Fault[] = [
  {
    id: 'WRITE-VERSION-LIMIT-AS-413',
    title: 'A version past the limit answers 413 instead of 400',
    breaks: ['LIMIT-WRITE-001'],
    area: 'core',
    description: 'A 400 refusing a version (`Version bytes … exceeds threshold`) becomes 413 `request too large`, as if the request body had been too large.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 400 && String(v4Errors(bodyJson(res))[0]?.description ?? '').startsWith('Version bytes'),
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'request too large', description: 'Request entity is too large.' }] }), 413),
      ),
    }),
  },
  {
    id: 'WRITE-VERSION-LIMIT-TOO-LOW',
    title: 'Versions are limited to 4 MiB',
    breaks: ['LIMIT-WRITE-001'],
    area: 'core',
    description: 'A query whose body is over 3 MiB and that writes is refused with 400 `bad request` `Version bytes … exceeds threshold (4194304)` (sent upstream as `null`).',
    apply: () =>
      forwardInstead(
        (req) => (largeQuery(req, 3 * MIB) && /"(create|update|replace)"/.test(req.body.toString('utf8')) ? Buffer.from('null') : undefined),
        (res, ctx) => withStatus(withJsonBody(res, { errors: [{ code: 'bad request', description: `Version bytes (${ctx.original.body.length}) exceeds threshold (4194304)` }] }), 400),
      ),
  },
  {
    id: 'WRITE-TRANSACTION-LIMIT-UNCHECKED',
    title: 'A query\'s writes are not limited in total',
    breaks: ['LIMIT-WRITE-002'],
    area: 'core',
    description: 'A large `let` over a `do` of three or more steps is sent upstream without its last step, so it fits the upstream\'s limit and answers 200, as a server that limits each version but not the transaction would.',
    apply: () => ({
      request: (req) => {
        const shape = largeQuery(req, MIB) ? letOfDo(req) : undefined;
        if (shape === undefined || shape.steps.length < 3) return undefined;
        return { ...req, body: Buffer.from(stringifyJson({ ...shape.expression, in: { do: shape.steps.slice(0, -1) } })) };
      },
    }),
  },
];
