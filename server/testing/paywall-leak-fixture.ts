/**
 * The leak suite's newsroom (server/publishing/paywall-leaks.int.test.ts): one subscription story
 * whose free part is two elements (the account's default: the story sets no point) and whose paid
 * part is four, each element carrying a marker of its own in another script, spread over two cards;
 * the story in a section, a tag, a manual collection, breaking news and by an author; a public
 * story beside it (related stories); and the six kinds of caller, as the query and headers each
 * sends on a content read.
 */
import { randomUUID } from "node:crypto";

import { GET as STORY_BY_ID } from "@/app/api/v1/stories/[storyId]/route";

import { createApiKey } from "../auth/api-keys";
import type { Db } from "../db/client";
import type { TCard } from "../publishing/cards.schema";
import { forgetPublisherCache } from "../publishing/publisher";
import { insertPlanWithAssets, insertSubscription, setMeter } from "./access-fixtures";
import { readerJwt } from "./engagement";
import { createTestPublisher, insertAuthor, insertSection, insertStory, insertTag } from "./publishing-factories";
import { callGet } from "./route-calls";

/** The free elements' markers: every caller may see them. */
export const FREE_MARKERS = ["freemark0 Libre lectura", "freemark1 قراءة مجانية"];
/** The paid elements' markers, one per element, in several scripts: only callers with access see them. */
export const PAID_MARKERS = [
  "paidmark0 Ελληνικό κρυφό κείμενο",
  "paidmark1 हिन्दी गुप्त अनुच्छेद",
  "paidmark2 தமிழ் மறைந்த பத்தி",
  "paidmark3 中文付费段落",
];

export const CALLERS = ["anonymous", "registered", "metered", "subscribed", "lapsed", "server-key"] as const;
export type Caller = (typeof CALLERS)[number];

/** What a caller sends on a content read: the query (check-access and the reader) and the headers. */
export type CallerRequest = { query: Record<string, string>; headers: Record<string, string>; memberId: number | null };

const element = (text: string) => ({
  id: randomUUID(),
  type: "text" as const,
  subtype: null,
  text: `<p>${text}</p>`,
  metadata: {},
});
const card = (...texts: string[]): TCard => ({
  id: randomUUID(),
  status: "draft",
  version: 1,
  metadata: {},
  "story-elements": texts.map(element),
});

async function member(db: Db, accountId: number, externalId: string) {
  return db.member.create({
    data: {
      accountId,
      name: externalId,
      email: `${externalId}@example.com`,
      passwordHash: "!x",
      identities: { create: { accountId, provider: "publisher", externalId } },
    },
  });
}

export async function seedLeakNewsroom(db: Db) {
  const account = await createTestPublisher(db);
  await db.account.update({ where: { id: account.id }, data: { paywallDefaultElements: 2 } });
  forgetPublisherCache();
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const { key: serverKey } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "front end" });
  const section = await insertSection(db, account.id, { name: "Ledgers" });
  const tag = await insertTag(db, account.id, { name: "leakproof" });
  const author = await insertAuthor(db, account.id, { name: "Ada Ledger" });
  const cards = [card(FREE_MARKERS[0]!, FREE_MARKERS[1]!, PAID_MARKERS[0]!), card(...PAID_MARKERS.slice(1))];
  const story = await insertStory(db, account.id, {
    headline: "Leakproof ledger",
    slug: "money/leakproof-ledger",
    access: "subscription",
    cards,
    sectionIds: [section.id],
    tagIds: [tag.id],
    authorIds: [author.id],
    isBreakingNews: true,
  });
  await db.story.update({ where: { id: story.id }, data: { externalId: "legacy-ledger" } });
  const neighbour = await insertStory(db, account.id, {
    headline: "Neighbouring news",
    sectionIds: [section.id],
    tagIds: [tag.id],
  });
  const decoy = await insertStory(db, account.id, { headline: "Decoy", access: "subscription" });
  const collection = await db.collection.create({
    data: { accountId: account.id, slug: "leak-home", name: "Home" },
  });
  await db.collectionItem.create({
    data: {
      collectionId: collection.id,
      position: 0,
      storyId: story.id,
      associatedMetadata: {},
    },
  });

  // One free story a period; the registered, lapsed and spent readers have read the decoy.
  await setMeter(db, account.id, { freeStories: 1 });
  const plan = await insertPlanWithAssets(db, account.id, { groupAssets: [{ type: "SITE" }] });
  const registered = await member(db, account.id, "leak-registered");
  const subscribed = await member(db, account.id, "leak-subscribed");
  const lapsed = await member(db, account.id, "leak-lapsed");
  const planIds = { planId: plan.plan.id, groupId: plan.group.id };
  await insertSubscription(db, { accountId: account.id, memberId: subscribed.id, ...planIds });
  await insertSubscription(db, {
    accountId: account.id,
    memberId: lapsed.id,
    ...planIds,
    status: "EXPIRED",
    start: new Date(Date.now() - 60 * 86_400_000),
    end: new Date(Date.now() - 30 * 86_400_000),
  });
  const reader = async (externalId: string, readerId: string) => ({
    "check-access": "true",
    key,
    readerId,
    accesstype_jwt: await readerJwt({ id: externalId, name: externalId }),
  });
  const requests: Record<Caller, CallerRequest> = {
    anonymous: { query: {}, headers: {}, memberId: null },
    registered: { query: await reader("leak-registered", "r-registered"), headers: {}, memberId: registered.id },
    metered: { query: { "check-access": "true", key, readerId: "r-fresh" }, headers: {}, memberId: null },
    subscribed: { query: await reader("leak-subscribed", "r-subscribed"), headers: {}, memberId: subscribed.id },
    lapsed: { query: await reader("leak-lapsed", "r-lapsed"), headers: {}, memberId: lapsed.id },
    "server-key": { query: {}, headers: { "X-SUBAUTH": serverKey }, memberId: null },
  };
  for (const caller of ["registered", "lapsed"] as const) {
    const spend = new URLSearchParams({ ...requests[caller].query, count: "true" });
    const res = await callGet(STORY_BY_ID, `/api/v1/stories/${decoy.id}?${spend}`, { storyId: decoy.id });
    if (res.status !== 200) throw new Error(`spending ${caller}'s meter: ${res.status}`);
  }
  return { db, account, key, serverKey, story, neighbour, collection, author, requests };
}

export type LeakNewsroom = Awaited<ReturnType<typeof seedLeakNewsroom>>;

/**
 * A response body as text a marker can be found in: JSON parsed and written again without
 * escapes (kept story forms are ASCII, "\u03b5"), HTML's numeric character references decoded.
 */
function readableBody(text: string): string {
  let out = text;
  try {
    out = JSON.stringify(JSON.parse(text));
  } catch {
    // Not JSON: HTML, XML or text.
  }
  return out
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)));
}

/** Which markers a body shows, each as its ASCII token or its words in their script. */
export function markersIn(body: string, markers: readonly string[]): string[] {
  const readable = readableBody(body);
  return markers.filter((marker) => {
    const [token, ...words] = marker.split(" ");
    return readable.includes(token!) || readable.includes(words.join(" "));
  });
}
