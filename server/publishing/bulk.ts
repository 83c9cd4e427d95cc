/**
 * Bulk reads: several named story lists and collections in one round trip.
 *
 * - POST /api/v1/bulk answers {results: {<name>: ...}} directly.
 * - POST /api/v1/bulk-request turns the same body into a GET: it answers 303 with a
 *   server-relative Location, /api/v1/bulk-request/<key>, and that GET answers {results}. The key
 *   is the requests themselves (canonical JSON: keys sorted, then deflate, then base64url), so it
 *   is stateless (any process, any restart), the same requests always give the same URL, and a CDN
 *   can cache it. Keys are capped at MAX_KEY_CHARS so the URL stays within what proxies accept.
 *
 * Results: a stories request gives {stories: [...]} (like GET /api/v1/stories); a collection
 * request gives the collection (like GET /api/v1/collections/<slug>), or null for an unknown slug.
 */
import "server-only";

import { deflateRawSync, inflateRawSync } from "node:zlib";

import type { Db } from "../db/client";
import { AppError, zodIssuesToDetails } from "../errors";
import { getPublishedCollection } from "./collections";
import { ZBulkRequests, type TBulkItem } from "./content.schema";
import { listPublishedStories, storyTags, type ContentContext } from "./stories";

/** Longest key of a bulk-request location (characters of base64url). */
export const MAX_KEY_CHARS = 6_000;
/** Largest JSON a key may inflate to. */
const MAX_INFLATED_BYTES = 256 * 1024;

type BulkRequests = Record<string, TBulkItem>;

/** Validate the named requests of a body (details point at `<field>.<name>.<param>`). */
export function parseBulkRequests(raw: unknown, field = "body.requests"): BulkRequests {
  const parsed = ZBulkRequests.safeParse(raw);
  if (!parsed.success)
    throw new AppError("BAD_REQUEST", "Invalid bulk requests.", { details: zodIssuesToDetails(parsed.error, field) });
  return parsed.data;
}

/** Run every request; results keyed by the caller's names, plus the purge tags of all of them. */
export async function runBulk(
  db: Db,
  { ctx, requests }: { ctx: ContentContext; requests: BulkRequests },
): Promise<{ results: Record<string, unknown>; tags: string[] }> {
  const tags: string[] = [];
  const entries = await Promise.all(
    Object.entries(requests).map(async ([name, request]): Promise<[string, unknown]> => {
      if (request.type === "collection") {
        const found = await getPublishedCollection(db, { ctx, slug: request.slug, query: request.query });
        if (found) tags.push(...found.tags);
        return [name, found?.collection ?? null];
      }
      const stories = await listPublishedStories(db, { ctx, ...request.query });
      tags.push("stories", ...storyTags(stories));
      return [name, { stories }];
    }),
  );
  return { results: Object.fromEntries(entries), tags };
}

/** JSON with object keys sorted at every level: equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}

/** The GET key of these (already validated) requests; 413 when they are too big for a URL. */
export function encodeBulkKey(requests: Record<string, unknown>): string {
  const key = deflateRawSync(Buffer.from(canonicalJson(requests)), { level: 9 }).toString("base64url");
  if (key.length > MAX_KEY_CHARS) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      "These requests are too large to answer by GET; send them to POST /api/v1/bulk instead.",
    );
  }
  return key;
}

/** The requests a key stands for; 400 when it is not one of ours. */
export function decodeBulkKey(key: string): unknown {
  try {
    const json = inflateRawSync(Buffer.from(key, "base64url"), { maxOutputLength: MAX_INFLATED_BYTES }).toString(
      "utf8",
    );
    return JSON.parse(json) as unknown;
  } catch {
    throw new AppError("BAD_REQUEST", "Not a bulk request key: POST the requests to /api/v1/bulk-request to get one.", {
      details: [{ field: "params.key", issue: "not a bulk request key" }],
    });
  }
}
