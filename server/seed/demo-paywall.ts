/**
 * The demo paywall (docs/subscriptions.md "Demo paywalled story"): three subscriber-only stories
 * (`access: "subscription"`) under the `premium/` slugs, a meter of 2 free stories a month for
 * every reader (logged in or not), and the `demo_test` gateway among the "Digital access" plans'
 * payment providers, so the demo page at /demo/paywall can meter, show the paywall and check out.
 * Idempotent: what exists is left alone.
 */
import { randomUUID } from "node:crypto";

import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { TCard } from "../publishing/cards.schema";
import { cardsPlainText, readTimeMinutes } from "../publishing/story-view";
import { escapeHtmlText } from "../security/html";
import type { SeedReport } from "./demo";
import { DEMO_GROUP_NAME } from "./demo-catalogue";

export const DEMO_PAYWALL_FREE_STORIES = 2;

export const DEMO_PREMIUM_STORIES = [
  {
    slug: "premium/inside-the-harbour-deal",
    headline: "Inside the harbour deal: who gains from the new port authority",
    summary: "Six months of documents show how the port's new board was chosen.",
    paragraphs: [
      "The city's new port authority met for the first time on Monday, after a year of negotiations that were held almost entirely behind closed doors.",
      "Documents obtained by The Daily Masthead show that three of the seven board seats were agreed before the public consultation opened.",
      "Two of those members sit on the boards of shipping companies that bid for the terminal contract in the spring.",
      "The authority says its rules on conflicts of interest are stricter than the law requires, and that every member declared their interests.",
    ],
  },
  {
    slug: "premium/the-quiet-return-of-night-trains",
    headline: "The quiet return of night trains, and the timetable that makes them pay",
    summary: "Operators found the sleeper's secret: fill the seats by day as well.",
    paragraphs: [
      "A decade after the last sleeper left the central station, four night routes now run every evening, and three of them are full most weeks.",
      "The operators' figures show the trains pay for themselves only because the same carriages run a daytime service on the way back.",
      "Passengers interviewed on the northern route said the price of a couchette was lower than a hotel room and a morning flight together.",
      "The rail regulator expects two more routes next year, if the track access fees stay where they are.",
    ],
  },
  {
    slug: "premium/what-the-reservoir-levels-tell-us",
    headline: "What the reservoir levels tell us about next summer",
    summary: "Our analysis of forty years of readings, reservoir by reservoir.",
    paragraphs: [
      "The region's reservoirs ended the autumn at 61 % of capacity, the lowest level at this time of year since records began in 1985.",
      "Our analysis of forty years of weekly readings shows that winters wet enough to refill them have become less frequent since 2000.",
      "Water companies say new pipelines between the eastern and western systems will keep taps running even after a dry winter.",
      "Hydrologists we spoke to were less certain, and pointed to the leakage figures that the companies publish only once a year.",
    ],
  },
] as const;

function premiumCards(paragraphs: readonly string[], at: number): TCard[] {
  return [
    {
      id: randomUUID(),
      "content-id": randomUUID(),
      status: "draft",
      version: 1,
      "story-elements": paragraphs.map((p) => ({
        id: randomUUID(),
        type: "text",
        subtype: null,
        text: `<p>${escapeHtmlText(p)}</p>`,
        metadata: {},
      })),
      metadata: {},
      "card-added-at": at,
      "card-updated-at": at,
    },
  ];
}

export async function seedDemoPaywall(
  db: Db,
  args: { accountId: number; now?: Date },
  report: SeedReport,
): Promise<{ storyIds: string[] }> {
  const { accountId } = args;
  const now = args.now ?? new Date();
  const storyIds: string[] = [];
  for (const [index, spec] of DEMO_PREMIUM_STORIES.entries()) {
    const existing = await db.story.findUnique({
      where: { accountId_slug: { accountId, slug: spec.slug } },
      select: { id: true },
    });
    if (existing) {
      storyIds.push(existing.id);
      continue;
    }
    // Older than the other demo stories: the newest-first listings the content clients read first stay as they were.
    const publishedAt = new Date(now.getTime() - (40 * 24 + index + 1) * 3600_000);
    const cards = premiumCards(spec.paragraphs, publishedAt.getTime());
    const plainText = cardsPlainText(cards);
    const story = await db.story.create({
      data: {
        accountId,
        headline: spec.headline,
        slug: spec.slug,
        summary: spec.summary,
        status: "PUBLISHED",
        storyTemplate: "text",
        access: "subscription",
        cards: cards as unknown as Prisma.InputJsonValue,
        plainText,
        readTime: readTimeMinutes(plainText),
        seo: { "meta-title": spec.headline, "meta-description": spec.summary },
        publishedAt,
        firstPublishedAt: publishedAt,
        lastPublishedAt: publishedAt,
      },
      select: { id: true },
    });
    storyIds.push(story.id);
    report.created.push(`story ${spec.slug}`);
  }
  if (!(await db.meterSettings.findUnique({ where: { accountId }, select: { accountId: true } }))) {
    await db.meterSettings.create({
      data: {
        accountId,
        enabled: true,
        freeStories: DEMO_PAYWALL_FREE_STORIES,
        periodLength: 1,
        periodUnit: "MONTHS",
        meterAnonymous: true,
      },
    });
    report.created.push(`paywall meter (${DEMO_PAYWALL_FREE_STORIES} free stories a month)`);
  }
  // The demo checkout pays through the test-only gateway (server/subscriptions/payments/demo-test-gateway.ts).
  const plans = await db.subscriptionPlan.findMany({
    where: { accountId, group: { name: DEMO_GROUP_NAME } },
    select: { id: true, supportedPaymentProviders: true },
  });
  for (const plan of plans) {
    const providers = Array.isArray(plan.supportedPaymentProviders)
      ? plan.supportedPaymentProviders.filter((p): p is string => typeof p === "string")
      : [];
    if (providers.includes("demo_test")) continue;
    await db.subscriptionPlan.update({
      where: { id: plan.id },
      data: { supportedPaymentProviders: [...providers, "demo_test"] },
    });
  }
  return { storyIds };
}
