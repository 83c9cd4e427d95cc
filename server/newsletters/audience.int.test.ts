// Who receives a newsletter (each audience, suppression, unsubscribed and pending readers), and which
// readers get a paywalled story whole (both databases).
import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { insertNewsletter, insertSubscribers } from "../testing/newsletter-fixtures";
import { createTestPublisher, insertStory, textCards } from "../testing/publishing-factories";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "../testing/subscription-fixtures";
import { audienceCount, audiencePage, memberAddress } from "./audience";
import { storyContent } from "./send-content";

let db: Db;
beforeEach(async () => {
  db = await getDb();
});

async function emails(newsletter: Parameters<typeof audiencePage>[1]["newsletter"], now = new Date()) {
  const all: string[] = [];
  let after = 0;
  for (;;) {
    const page = await audiencePage(db, { newsletter, now, after, limit: 2 });
    all.push(...page.items.map((r) => r.email));
    if (page.nextAfter === null) return all;
    after = page.nextAfter;
  }
}

describe("a newsletter's audience", () => {
  it("OPT_IN: every ACTIVE subscriber, not PENDING or UNSUBSCRIBED ones, not suppressed addresses", async () => {
    const account = await createTestPublisher(db);
    const newsletter = await insertNewsletter(db, account.id);
    const active = await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      count: 5,
      prefix: "act",
    });
    await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      count: 2,
      prefix: "pend",
      status: "PENDING",
    });
    await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      count: 2,
      prefix: "left",
      status: "UNSUBSCRIBED",
    });
    await db.emailSuppression.create({ data: { accountId: account.id, email: active[1]!.email, reason: "bounce" } });
    // Another newsletter's and another account's readers are not this one's.
    const other = await insertNewsletter(db, account.id);
    await insertSubscribers(db, { accountId: account.id, newsletterId: other.id, count: 2, prefix: "oth" });
    expect((await emails(newsletter)).sort()).toEqual(
      active
        .filter((_, i) => i !== 1)
        .map((m) => m.email)
        .sort(),
    );
    expect(await audienceCount(db, { newsletter, now: new Date() })).toBe(4);
  });

  it("MEMBERS: only members with a verified e-mail", async () => {
    const account = await createTestPublisher(db);
    const newsletter = await insertNewsletter(db, account.id, { audience: "MEMBERS" });
    const verified = await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      count: 3,
      prefix: "ver",
    });
    await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      count: 2,
      prefix: "unv",
      emailVerified: false,
    });
    expect((await emails(newsletter)).sort()).toEqual(verified.map((m) => m.email).sort());
  });

  it("PAYING: a live subscription to one of the plans (any plan when none is named)", async () => {
    const account = await createTestPublisher(db);
    const group = await insertTestGroup(db, account.id);
    const [gold, silver] = [
      await insertTestPlan(db, group, { title: "Gold" }),
      await insertTestPlan(db, group, { title: "Silver" }),
    ];
    const anyPlan = await insertNewsletter(db, account.id, { audience: "PAYING" });
    const goldOnly = await insertNewsletter(db, account.id, { audience: "PAYING", planIds: [gold.id] });
    const now = new Date();
    const readers = await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: anyPlan.id,
      count: 5,
      prefix: "pay",
    });
    await db.newsletterSubscription.createMany({
      data: readers.map((r) => ({
        accountId: account.id,
        newsletterId: goldOnly.id,
        memberId: r.id,
        status: "ACTIVE" as const,
        consentedAt: now,
        consentSource: "test",
      })),
    });
    const [goldReader, silverReader, expired, pending, none] = readers;
    await insertTestSubscription(db, { accountId: account.id, memberId: goldReader!.id, planId: gold.id });
    await insertTestSubscription(db, { accountId: account.id, memberId: silverReader!.id, planId: silver.id });
    await insertTestSubscription(db, {
      accountId: account.id,
      memberId: expired!.id,
      planId: gold.id,
      start: new Date(now.getTime() - 60 * 86_400_000),
      end: new Date(now.getTime() - 86_400_000),
    });
    await insertTestSubscription(db, {
      accountId: account.id,
      memberId: pending!.id,
      planId: gold.id,
      status: "PENDING",
    });
    void none;
    expect((await emails(anyPlan)).sort()).toEqual([goldReader!.email, silverReader!.email].sort());
    expect(await emails(goldOnly)).toEqual([goldReader!.email]);
  });

  it("mails a member's address, or for an identity-only member the communication e-mail", () => {
    expect(memberAddress({ email: "Ada@Example.com", communicationEmail: null })).toBe("ada@example.com");
    expect(memberAddress({ email: "jwt-1@identities.invalid", communicationEmail: "Bo@example.com" })).toBe(
      "bo@example.com",
    );
    expect(memberAddress({ email: "jwt-1@identities.invalid", communicationEmail: null })).toBeNull();
  });
});

describe("a paywalled story in a mail", () => {
  it("is whole for a reader whose subscription grants it, cut for the others", async () => {
    const account = await createTestPublisher(db);
    const newsletter = await insertNewsletter(db, account.id);
    const story = await insertStory(db, account.id, {
      access: "subscription",
      cards: textCards("Free paragraph.", "Paid paragraph."),
    });
    const [subscriber, reader] = await insertSubscribers(db, {
      accountId: account.id,
      newsletterId: newsletter.id,
      count: 2,
    });
    const group = await insertTestGroup(db, account.id);
    const plan = await insertTestPlan(db, group);
    await insertTestSubscription(db, { accountId: account.id, memberId: subscriber!.id, planId: plan.id });
    const content = await storyContent(db, {
      newsletter,
      storyId: story.id,
      appUrl: "https://app.test",
      now: new Date(),
    });
    await content.prepare([subscriber!.id, reader!.id]);
    expect(content.templateFor(subscriber!.id).html).toContain("Paid paragraph.");
    const cut = content.templateFor(reader!.id).html;
    expect(cut).toContain("Free paragraph.");
    expect(cut).not.toContain("Paid paragraph.");
    expect(cut).toContain("Subscribe to read on");
  });
});
