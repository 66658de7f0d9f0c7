// Faults of query deadlines (LIMIT-TIME; spec/requirements/limits.md, DEC-069): servers that honour
// `x-query-timeout` wrongly in one plausible way each.
import type { Fault, ProxiedRequest } from '../fault.js';
import { isJsonObject, stringifyJson } from '../json-body.js';
import { bodyJson, forwardInstead, rewriteResponse, v4Errors, v4Expression, withJsonBody, withStatus, withoutHeader } from './lib/rewrites.js';

const TIMED_OUT = { code: 'time out', description: 'Read timed out (Query eval has timed out.)' };

function hasDeadline(request: ProxiedRequest): boolean {
  return request.headers['x-query-timeout'] !== undefined;
}

/** The steps of a top-level `do` ending in a Call, the work that outlasts a deadline in the suite's checks. */
function doEndingInCall(request: ProxiedRequest): unknown[] | undefined {
  const expression = v4Expression(request);
  if (!isJsonObject(expression) || Object.keys(expression).length !== 1 || !Array.isArray(expression.do)) return undefined;
  const last = expression.do.at(-1);
  return expression.do.length >= 2 && isJsonObject(last) && 'call' in last ? expression.do : undefined;
}

export const QUERY_DEADLINE_FAULTS: Fault[] = [
  {
    id: 'QUERY-TIMEOUT-IGNORED',
    title: '`x-query-timeout` does not stop the query',
    breaks: ['LIMIT-TIME-001'],
    area: 'core',
    description: 'Every `x-query-timeout` is sent upstream as 600000, the largest it may be: a long query runs until the server\'s own limit stops it.',
    apply: () => ({
      request: (req) => (hasDeadline(req) && req.headers['x-query-timeout'] !== '600000' ? { ...req, headers: { ...req.headers, 'x-query-timeout': '600000' } } : undefined),
    }),
  },
  {
    id: 'QUERY-TIMEOUT-AS-440',
    title: 'A query past its deadline answers 440 instead of 503',
    breaks: ['LIMIT-TIME-001'],
    area: 'core',
    description: 'A 503 `time out` answer becomes 440 `processing time limit exceeded`, the answer of a function that outlasts the function time limit.',
    apply: () => ({
      response: rewriteResponse(
        (res) => res.status === 503 && v4Errors(bodyJson(res))[0]?.code === 'time out',
        (res) => withStatus(withJsonBody(res, { errors: [{ code: 'processing time limit exceeded', description: 'Query ran for too long.' }] }), 440),
      ),
    }),
  },
  {
    id: 'QUERY-TIMEOUT-KEEPS-EARLIER-WRITES',
    title: 'A query stopped at its deadline keeps the writes before it',
    breaks: ['LIMIT-TIME-002'],
    area: 'core',
    description: 'A top-level `do` with an `x-query-timeout` whose last step is a Call commits its earlier steps (sent without the Call) and answers 503 `time out`.',
    apply: () =>
      forwardInstead(
        (req) => {
          const steps = hasDeadline(req) ? doEndingInCall(req) : undefined;
          return steps === undefined ? undefined : Buffer.from(stringifyJson({ do: [...steps.slice(0, -1), null] }));
        },
        (res) => withStatus(withJsonBody(withoutHeader(res, 'x-txn-time'), { errors: [TIMED_OUT] }), 503),
      ),
  },
];
