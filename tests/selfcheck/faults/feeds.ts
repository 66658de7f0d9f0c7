// The faults of spec/requirements/feeds.md that are code; their rows (ids, titles, what they break) are in feeds.json.
import { isJsonObject, jsonInt, tryParseJson, type JsonObject } from '../json-body.js';
import { feedPage, isEvent, isFeedRequest, isRetentionError } from './lib/event-rewrites.js';
import { onJson, withJsonBody } from './lib/rewrites.js';
import type { FaultCode } from './lib/table.js';

export const code: FaultCode = {
  'FEED-STATUS-EVENT': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined,
    (body) => {
      const page = feedPage(body)!;
      page.events.unshift({ type: 'status', txn_ts: jsonInt(1), cursor: String(page.cursor ?? ''), stats: page.stats ?? {} });
    },
  ),
  'FEED-BASIC-AUTH-REFUSED': () => ({
    request: (req) => {
      const auth = req.headers.authorization;
      if (!isFeedRequest(req) || auth === undefined || !/^basic /i.test(auth)) return undefined;
      return { ...req, headers: { ...req.headers, authorization: `Bearer ${auth.slice(6)}` } };
    },
  }),
  'FEED-CURSOR-PER-TRANSACTION': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && feedPage(body) !== undefined,
    (body) => {
      const events = feedPage(body)!.events.filter(isJsonObject);
      let changed = 0;
      for (const [i, event] of events.entries()) {
        const last = events.findLast((other) => String(other.txn_ts) === String(event.txn_ts) && typeof other.cursor === 'string');
        if (last !== undefined && last !== event && events.indexOf(last) > i && 'cursor' in event) {
          event.cursor = last.cursor;
          changed += 1;
        }
      }
      return changed;
    },
  ),
  'FEED-PAGE-CURSOR-BEHIND': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && feedPage(body)?.has_next === true && feedPage(body)!.events.length >= 2,
    (body) => {
      const page = feedPage(body)!;
      const previous = page.events[page.events.length - 2];
      if (!isJsonObject(previous) || typeof previous.cursor !== 'string') return false;
      page.cursor = previous.cursor;
      return true;
    },
  ),
  'FEED-ERROR-OUTSIDE-EVENTS': onJson(
    (body, ctx) => isFeedRequest(ctx.original) && (feedPage(body)?.events.some((e) => isEvent(e, 'error')) ?? false),
    (body) => {
      const page = feedPage(body)!;
      const error = page.events.find((e) => isEvent(e, 'error')) as JsonObject;
      page.events = page.events.filter((e) => e !== error);
      page.error = error.error;
    },
  ),
  'FEED-RETENTION-ERROR-AS-400': () => ({
    response(response, ctx) {
      if (!isFeedRequest(ctx.original) || response.status !== 200) return undefined;
      const parsed = tryParseJson(response.body);
      const page = parsed.ok ? feedPage(parsed.value) : undefined;
      const error = page?.events.find(isRetentionError) as JsonObject | undefined;
      if (error === undefined) return undefined;
      return withJsonBody({ ...response, status: 400 }, { error: error.error });
    },
  }),
};
