/**
 * What the demo paywall pages (app/demo/paywall/) show before any access check: the demo
 * publisher's subscriber-only stories, each with its headline, summary and FIRST paragraph only.
 * The rest of a story reaches the browser only from the content API's gated read
 * (`check-access=true`, docs/subscriptions.md "402 on story reads"), after a grant.
 */
import "server-only";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { DEMO } from "../seed/demo";

export type DemoPaywallStory = { id: string; slug: string; headline: string; summary: string | null; lead: string };

type DemoPaywall = {
  accountKey: string;
  demoTools: boolean;
  stories: DemoPaywallStory[];
};

const stripTags = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

function firstParagraph(cards: unknown): string {
  for (const card of Array.isArray(cards) ? cards : []) {
    const elements = (card as { "story-elements"?: unknown })?.["story-elements"];
    for (const element of Array.isArray(elements) ? elements : []) {
      const e = element as { type?: string; text?: string };
      if (e.type === "text" && typeof e.text === "string" && e.text.trim()) return stripTags(e.text);
    }
  }
  return "";
}

/** The demo account's subscriber-only stories, oldest slug order; null when there is no demo account. */
export async function loadDemoPaywall(db: Db): Promise<DemoPaywall | null> {
  const account = await db.account.findUnique({ where: { slug: DEMO.account.slug }, select: { id: true } });
  if (!account) return null;
  const rows = await db.story.findMany({
    where: { accountId: account.id, access: "subscription", status: "PUBLISHED", slug: { startsWith: "premium/" } },
    select: { id: true, slug: true, headline: true, summary: true, cards: true },
    orderBy: { slug: "asc" },
    take: 20,
  });
  return {
    accountKey: DEMO.accountKey,
    demoTools: getEnv().DEMO_TOOLS,
    stories: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      headline: r.headline,
      summary: r.summary,
      lead: firstParagraph(r.cards),
    })),
  };
}
