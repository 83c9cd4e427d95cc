/**
 * What the demo paywall pages (app/demo/paywall/) show before any access check: the demo
 * publisher's subscriber-only stories, each with its headline, summary and the first paragraph of
 * its free part only (docs/subscriptions.md "Who gets the paid part").
 * The rest of a story reaches the browser only from the content API's gated read
 * (`check-access=true`, docs/subscriptions.md "402 on story reads"), after a grant.
 */
import "server-only";

import { directionOf, type Locale } from "@/i18n/locales";
import { translator, type Translate } from "@/i18n/translate";

import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import { accountLocales, pageLocale } from "../i18n/locale-settings";
import { overridesFor } from "../i18n/overrides";
import { mergedMessages } from "../i18n/surface-messages";
import type { TCard } from "../publishing/cards.schema";
import { paywallPointOf, splitAtPaywall } from "../publishing/paywall-point";
import { DEMO } from "../seed/demo";
import { DEMO_GROUP_NAME } from "../seed/demo-catalogue";

export type DemoPaywallStory = { id: string; slug: string; headline: string; summary: string | null; lead: string };

type DemoPaywall = {
  accountId: number;
  accountKey: string;
  demoTools: boolean;
  /** The publication's name (Settings → site title), else the account's. */
  publication: string;
  /** The group of plans the paywall offers. */
  group: string;
  stories: DemoPaywallStory[];
};

/** The demo pages' language and words: the paywall catalogue's, the account's overrides in force. */
type DemoPaywallWords = {
  locale: Locale;
  dir: "ltr" | "rtl";
  /** The locales a reader may switch to, the one shown first. */
  offered: Locale[];
  /** For the server's part of the page. */
  t: Translate<"paywall">;
  /** For the browser's part: the `demo.*` and `access.*` messages, as text. */
  entries: [string, string][];
};

/**
 * The locale of a demo page: the one `?locale=` names, else the browser's (Accept-Language), else
 * the account's default, among the locales the account offers.
 */
export async function demoPaywallWords(
  db: Db,
  accountId: number,
  asked: { locale?: string | null; acceptLanguage?: string | null },
): Promise<DemoPaywallWords> {
  const locales = await accountLocales(db, accountId);
  const locale = pageLocale(locales, { saved: asked.locale, acceptLanguage: asked.acceptLanguage });
  const overrides = await overridesFor(db, accountId, "paywall", locale);
  const browser = mergedMessages("paywall", locale, overrides, (key) => /^(demo|access)\./.test(key));
  return {
    locale,
    dir: directionOf(locale),
    offered: locales.offered,
    t: translator("paywall", locale, overrides),
    entries: [...browser],
  };
}

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

/** A story's free part (../publishing/paywall-point.ts), its stored cards not trusted to be cards. */
function freePart(story: { cards: unknown; access: string | null; paywallAt: number | null }, accountDefault: number) {
  const cards = (Array.isArray(story.cards) ? story.cards : []).filter(
    (card): card is TCard => typeof card === "object" && card !== null,
  );
  return splitAtPaywall(cards, paywallPointOf(story, accountDefault)).free;
}

/** The demo account's subscriber-only stories, oldest slug order; null when there is no demo account. */
export async function loadDemoPaywall(db: Db): Promise<DemoPaywall | null> {
  const account = await db.account.findUnique({
    where: { slug: DEMO.account.slug },
    select: { id: true, name: true, paywallDefaultElements: true, publisherConfig: { select: { settings: true } } },
  });
  if (!account) return null;
  const title = (account.publisherConfig?.settings as { title?: unknown } | null)?.title;
  const rows = await db.story.findMany({
    where: { accountId: account.id, access: "subscription", status: "PUBLISHED", slug: { startsWith: "premium/" } },
    select: { id: true, slug: true, headline: true, summary: true, cards: true, access: true, paywallAt: true },
    orderBy: { slug: "asc" },
    take: 20,
  });
  return {
    accountId: account.id,
    accountKey: DEMO.accountKey,
    demoTools: getEnv().DEMO_TOOLS,
    publication: typeof title === "string" && title.trim() ? title.trim() : account.name,
    group: DEMO_GROUP_NAME,
    stories: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      headline: r.headline,
      summary: r.summary,
      // The lead comes from the free part only: the page is shown to anyone.
      lead: firstParagraph(freePart(r, account.paywallDefaultElements)),
    })),
  };
}
