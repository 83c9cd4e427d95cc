/**
 * The scenarios: the publishing content API's reads, the engagement API (comment counts, a comment
 * list, comment create) and the access checks, from what the seed wrote to DATA_DIR.
 *
 * Content and engagement reads run twice: as readers send them (served by the response cache once
 * built) and ", uncached": with `Cache-Control: no-cache`, which builds every answer afresh.
 * Comment create and the access checks are built afresh every time.
 */
import fs from "node:fs";
import path from "node:path";

import { SignJWT } from "jose";

import type { Call } from "./load";
import { dataDir } from "./options";

export type Scenario = {
  name: string;
  call: () => Call;
  /** Built afresh on every request (not an answer of the response cache): it gets a floor. */
  afresh: boolean;
  /**
   * How many different requests its calls go round (one when not said): a scenario read from the
   * response cache is warmed up with each of them first, so that it measures answers from the cache.
   */
  distinct?: number;
};

const get = (path: string): Call => ({ path });

/** The same request, asking to be built afresh (Cache-Control: no-cache). */
const uncached = (call: Call): Call => ({
  path: call.path,
  init: { ...call.init, headers: { accept: "application/json", ...call.init?.headers, "cache-control": "no-cache" } },
});

/** The two baselines: the empty route handler, and an empty answer through apiRoute on a dynamic path. */
export function baselines(): Scenario[] {
  let i = 0;
  return [
    { name: "empty handler", call: () => get("/api/bench/empty"), afresh: false },
    { name: "empty apiRoute, dynamic path", call: () => get(`/api/bench/empty/${i++ % 1000}`), afresh: false },
  ];
}

/** Every scenario but the baselines, cached reads first, then their uncached twins, then the rest. */
export async function scenarios(base: string, stories: number): Promise<Scenario[]> {
  const content = await contentScenarios(base, stories);
  const engagement = await engagementScenarios();
  const reads = [...content, ...engagement.reads];
  return [
    ...reads.map((s) => ({ ...s, afresh: false })),
    ...reads.map((s) => ({ name: `${s.name}, uncached`, call: () => uncached(s.call()), afresh: true })),
    { ...engagement.create, afresh: true },
    ...(await accessScenarios()).map((s) => ({ ...s, afresh: true })),
  ];
}

/** A scenario before it is told whether it is built afresh. */
type Named = Omit<Scenario, "afresh">;

async function contentScenarios(base: string, stories: number): Promise<Named[]> {
  const slugs = Array.from(
    { length: 1000 },
    () => `bench/story-${String(1 + Math.floor(Math.random() * stories)).padStart(6, "0")}`,
  );
  // Story ids for related stories: looked up once, by slug.
  const storyIds: string[] = [];
  for (const slug of slugs.slice(0, 100)) {
    const response = await fetch(`${base}/api/v1/stories-by-slug?slug=${encodeURIComponent(slug)}&fields=id`);
    if (response.ok) storyIds.push(((await response.json()) as { story: { id: string } }).story.id);
  }
  // A bulk request as front pages make it: the home collection and two story lists in one GET.
  const bulk = await fetch(`${base}/api/v1/bulk-request`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      requests: {
        home: { _type: "collection", slug: "home", limit: 10 },
        latest: { _type: "stories", limit: 10 },
        more: { _type: "stories", limit: 5, offset: 10 },
      },
    }),
  });
  const bulkPath = bulk.headers.get("location") ?? "/api/v1/bulk-request/none";
  const words = ["climate", "election", "market", "football", "festival", "budget"];
  let i = 0;
  return [
    { name: "stories list", call: () => get("/api/v1/stories?limit=20") },
    {
      name: "story by slug",
      call: () => get(`/api/v1/stories-by-slug?slug=${encodeURIComponent(slugs[i++ % slugs.length]!)}`),
      distinct: slugs.length,
    },
    { name: "collection (home)", call: () => get("/api/v1/collections/home") },
    { name: "bulk request", call: () => get(bulkPath) },
    ...(storyIds.length
      ? [
          {
            name: "related stories",
            call: () => get(`/api/v1/stories/${storyIds[i++ % storyIds.length]}/related-stories`),
            distinct: storyIds.length,
          },
        ]
      : []),
    { name: "config", call: () => get("/api/v1/config") },
    {
      name: "search",
      call: () => get(`/api/v1/search?q=${words[i++ % words.length]}&limit=20`),
      distinct: words.length,
    },
  ];
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(dataDir, file), "utf8")) as T;

const signJwt = (claims: { id: string; name: string }, key: Uint8Array) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setIssuedAt().setExpirationTime("2h").sign(key);

/**
 * The engagement scenarios (server/seed/large-engagement.ts: DATA_DIR/bench-engagement.json, and
 * the account's shared JWT key in demo-credentials.json). Comment create posts as 1,000 readers,
 * each from an address of its own (TRUST_PROXY and X-Forwarded-For, as behind a load balancer),
 * with a distinct body every time: the per-IP limit and the duplicate window refuse nothing.
 */
async function engagementScenarios(): Promise<{ reads: Named[]; create: Named }> {
  const seeded = readJson<{ accountId: number; bigPage: string; countPages: string[]; writerIds: string[] }>(
    "bench-engagement.json",
  );
  const { jwtSecret } = readJson<{ jwtSecret: string }>("demo-credentials.json");
  // The spec's page id: base64 of encodeURIComponent(url) (server/engagement/pages.ts encodePageId).
  const pageId = (url: string) => Buffer.from(encodeURIComponent(url), "utf8").toString("base64");
  const pages = `/api/v1/accounts/${seeded.accountId}/pages`;
  const key = new TextEncoder().encode(jwtSecret);
  const writers = await Promise.all(
    seeded.writerIds.map(async (id, n) => ({
      // The name the seed gave the writer: a returning reader.
      jwt: await signJwt({ id, name: `Writer ${n + 1}` }, key),
      ip: `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`,
    })),
  );
  // Ten sets of 100 pages, picked at random once (a front page asks for the pages it lists).
  const countQueries = Array.from({ length: 10 }, () => {
    const ids = Array.from(
      { length: 100 },
      () => seeded.countPages[Math.floor(Math.random() * seeded.countPages.length)]!,
    ).map(pageId);
    return `${pages}?page_ids=${encodeURIComponent(ids.join(","))}`;
  });
  const bigList = `${pages}/${encodeURIComponent(pageId(seeded.bigPage))}/comments.json`;
  const sentences = [
    "I read this twice and the second half makes a fair point about the costs.",
    "Thanks for covering the meeting; the council should publish the figures.",
    "Not sure about the timetable, but the plan itself sounds reasonable.",
    "Our street was mentioned in the report and nobody told us beforehand.",
  ];
  let c = 0;
  let p = 0;
  let w = 0;
  // Runs of the bench differ in this (the seed removes earlier runs' comments, not their bodies).
  const run = Date.now().toString(36);
  return {
    reads: [
      {
        name: "comment counts (100 pages)",
        call: () => get(countQueries[c++ % countQueries.length]!),
        distinct: countQueries.length,
      },
      { name: "comment list (2,000 comments)", call: () => get(bigList) },
    ],
    create: {
      name: "comment create",
      call: () => {
        const n = w++;
        const writer = writers[n % writers.length]!;
        const page = seeded.countPages[(p++ * 7) % seeded.countPages.length]!;
        return {
          path: `${pages}/${encodeURIComponent(pageId(page))}/comments.json`,
          init: {
            method: "POST",
            headers: { accept: "application/json", "content-type": "application/json", "x-forwarded-for": writer.ip },
            body: JSON.stringify({
              comment: { body: { ops: [{ insert: `${sentences[n % sentences.length]} (${run}-${n})` }] } },
              jwt: writer.jwt,
            }),
          },
        };
      },
    },
  };
}

/**
 * The access scenarios (server/seed/large-access.ts: DATA_DIR/bench-access.json): the web access
 * check and AMP's authorization for subscription stories. "access decision": one in two calls by
 * a subscriber (its publisher-signed JWT), the others by an anonymous reader with a meter
 * history; "amp-access": anonymous AMP readers, forwarded with the server key. Neither counts (AMP counts on pingback).
 */
async function accessScenarios(): Promise<Named[]> {
  const seeded = readJson<{ storyIds: string[]; subscriberIds: string[]; anonymousIds: string[] }>("bench-access.json");
  const { jwtSecret, accountKey, subauthKey } = readJson<{ jwtSecret: string; accountKey: string; subauthKey: string }>(
    "demo-credentials.json",
  );
  if (seeded.storyIds.length === 0) return [];
  const key = new TextEncoder().encode(jwtSecret);
  const jwts = await Promise.all(seeded.subscriberIds.slice(0, 200).map((id) => signJwt({ id, name: id }, key)));
  let a = 0;
  let m = 0;
  const story = (n: number) => seeded.storyIds[(n * 13) % seeded.storyIds.length]!;
  const anon = (n: number) => seeded.anonymousIds[(n * 7) % seeded.anonymousIds.length]!;
  return [
    {
      name: "access decision",
      call: () => {
        const n = a++;
        const base = `/api/access/v1/stories/${story(n)}/access?key=${accountKey}`;
        return { path: n % 2 ? `${base}&accesstype_jwt=${jwts[n % jwts.length]}` : `${base}&readerId=${anon(n)}` };
      },
    },
    {
      name: "amp-access",
      call: () => {
        const n = m++;
        return {
          path: `/api/access/v1/stories/${story(n)}/amp-access?key=${accountKey}&accesstype_integration_id=1&readerId=${anon(n)}`,
          // As the publisher's first-party endpoint forwards AMP's call (docs/subscriptions.md).
          init: { headers: { "x-subauth": subauthKey } },
        };
      },
    },
  ];
}
