/**
 * Suppressed addresses (./suppression.ts): one row per address and account, stored lower-cased; a
 * stronger reason replaces a weaker one and never the reverse; suppressing ends the address's
 * subscriptions with the reason as their source; the check answers per account. Both databases.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { createTestPublisher } from "../testing/publishing-factories";
import { findSuppression, isSuppressed, liftSuppression, suppress, suppressedAmong } from "./suppression";

async function newsletterWithReader(db: Db, accountId: number, email: string) {
  const newsletter = await db.newsletter.create({
    data: { accountId, slug: `daily-${accountId}`, name: "Daily", senderName: "Desk", senderEmail: "desk@example.com" },
  });
  const member = await db.member.create({ data: { accountId, name: "Ada", email, passwordHash: "-" } });
  const subscription = await db.newsletterSubscription.create({
    data: {
      accountId,
      newsletterId: newsletter.id,
      memberId: member.id,
      status: "ACTIVE",
      consentedAt: new Date("2026-11-01T00:00:00Z"),
      consentSource: "widget",
    },
  });
  return { newsletter, member, subscription };
}

describe("suppression", () => {
  it("stores the address lower-cased once, keeps the stronger reason and ends the subscriptions", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const other = await createTestPublisher(db);
    const { subscription } = await newsletterWithReader(db, account.id, "ada@example.com");
    const now = new Date("2026-11-20T10:00:00Z");

    expect(
      await suppress(db, {
        accountId: account.id,
        email: " Ada@Example.com ",
        reason: "bounce",
        detail: "550 no such user",
        now,
      }),
    ).toEqual({ unsubscribed: 1 });
    const ended = await db.newsletterSubscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(ended).toMatchObject({ status: "UNSUBSCRIBED", unsubscribeSource: "bounce", unsubscribedAt: now });

    await suppress(db, { accountId: account.id, email: "ADA@example.com", reason: "complaint" });
    expect(await findSuppression(db, { accountId: account.id, email: "ada@example.com" })).toMatchObject({
      reason: "complaint",
    });
    await suppress(db, { accountId: account.id, email: "ada@example.com", reason: "bounce" });
    expect(await findSuppression(db, { accountId: account.id, email: "ada@example.com" })).toMatchObject({
      reason: "complaint",
    });
    expect(await db.emailSuppression.count({ where: { accountId: account.id } })).toBe(1);

    expect(await isSuppressed(db, { accountId: account.id, email: "Ada@example.com" })).toBe(true);
    expect(await isSuppressed(db, { accountId: other.id, email: "ada@example.com" })).toBe(false);
    expect([
      ...(await suppressedAmong(db, { accountId: account.id, emails: ["ADA@example.com", "bo@example.com"] })),
    ]).toEqual(["ada@example.com"]);

    expect(await liftSuppression(db, { accountId: account.id, email: "ada@example.com" })).toBe(true);
    expect(await isSuppressed(db, { accountId: account.id, email: "ada@example.com" })).toBe(false);
  });

  it("two reports of one address at once write one row", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    await Promise.all([
      suppress(db, { accountId: account.id, email: "bo@example.com", reason: "bounce" }),
      suppress(db, { accountId: account.id, email: "bo@example.com", reason: "bounce" }),
    ]);
    expect(await db.emailSuppression.count({ where: { accountId: account.id } })).toBe(1);
  });
});
