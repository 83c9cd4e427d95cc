/**
 * The access routes in tests (app/api/access/v1/stories/[storyId]/…): a publisher with a client
 * key, a server key and a maker of stories of an access and an access level
 * (`createAccessFixture`), a request to one of a story's routes (`send`), the same request as the
 * publisher's first-party endpoint forwards AMP's calls (`forward`: with the account's server key
 * in X-SUBAUTH), amp-access read as its grant, an AMP pingback that is answered 200 and {}, and
 * the meter's views on an account.
 */
import { expect } from "vitest";

import { GET as AMP_ACCESS } from "@/app/api/access/v1/stories/[storyId]/amp-access/route";
import { POST as AMP_PINGBACK } from "@/app/api/access/v1/stories/[storyId]/amp-pingback/route";

import { createApiKey } from "../accounts/api-keys";
import type { Db } from "../db/client";
import type { AccessGrant } from "../subscriptions/access/access";
import { createTestPublisher, insertStory } from "./publishing-factories";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Each fixture's server key, by its client key: what the publisher's first-party endpoint adds. */
const serverKeyOf = new Map<string, string>();

export async function createAccessFixture(db: Db) {
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const { key: serverKey } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "back end" });
  serverKeyOf.set(key, serverKey);
  const story = (access: string, level?: number) =>
    insertStory(db, account.id, { access }).then(async (s) =>
      level === undefined ? s : db.story.update({ where: { id: s.id }, data: { accessLevelValue: level } }),
    );
  return { db, account, key, serverKey, story };
}

export function send(
  handler: Handler,
  storyId: string,
  query: Record<string, string | undefined>,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const qs = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return handler(
    new Request(`http://localhost/api/access/v1/stories/${storyId}/x?${qs}`, {
      method: init.method ?? "GET",
      headers: { host: "localhost", ...init.headers },
      body: init.body,
    }),
    { params: Promise.resolve({ storyId }) },
  );
}

/**
 * `send` as the publisher's first-party endpoint forwards AMP's calls (spec §5, docs/subscriptions.md
 * "Who calls the AMP endpoints"): the same request with the account's server key in X-SUBAUTH.
 */
export function forward(
  handler: Handler,
  storyId: string,
  query: Record<string, string | undefined>,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const serverKey = query.key === undefined ? undefined : serverKeyOf.get(query.key);
  if (serverKey === undefined) throw new Error("forward: the query's key is not a fixture's client key.");
  return send(handler, storyId, query, { ...init, headers: { ...init.headers, "x-subauth": serverKey } });
}

export async function ampAccess(storyId: string, query: Record<string, string | undefined>) {
  const res = await forward(AMP_ACCESS, storyId, query);
  expect(res.status).toBe(200);
  return (await res.json()) as AccessGrant;
}

export async function pingback(
  storyId: string,
  query: Record<string, string | undefined>,
  handler: Handler = AMP_PINGBACK,
) {
  const res = await (handler === AMP_PINGBACK ? forward : send)(handler, storyId, query, {
    method: "POST",
    body: JSON.stringify({ granted: true, grantReason: "METERING", data: { numberRemaining: 1, isLoggedIn: false } }),
    headers: { "content-type": "text/plain;charset=UTF-8" },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({});
}

export const views = (db: Db, accountId: number) => db.meterView.count({ where: { accountId } });
