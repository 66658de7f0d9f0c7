// Helpers of the page faults: rewrites of the pages a Paginate answers.
import { isJsonObject, type JsonObject } from '../../json-body.js';
import { isPage, paginateForms } from './index-tracking.js';
import { rewriteJson, v4Expression, v4Resource } from './rewrites.js';

/** A page answering a `paginate` the suite sent (the resource of the answer), for answer rewrites. */
export function pageAnswer(
  rewrite: (page: JsonObject & { data: unknown[] }, forms: JsonObject[]) => number | boolean,
): ReturnType<typeof rewriteJson> {
  return rewriteJson(
    (body, ctx) => paginateForms(v4Expression(ctx.original)).length > 0 && isPage(v4Resource(body)),
    (body, ctx) => rewrite(v4Resource(body) as JsonObject & { data: unknown[] }, paginateForms(v4Expression(ctx.original))),
  );
}

export function isRefEntry(value: unknown): boolean {
  return isJsonObject(value) && isJsonObject(value['@ref']);
}
