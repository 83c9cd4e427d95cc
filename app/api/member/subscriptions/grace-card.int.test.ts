/**
 * A demo reader (known by the publisher's JWT) whose renewal failed, in the grace period: the
 * self-service card, the paywall's facts and the "update your card" e-mail say the same thing
 * (still reading until the grace end, not "Ended"); a card given on the self-service page is
 * charged at once and the reader leaves "Payment failed".
 */
import { afterEach, describe, expect, it } from "vitest";

import { POST as CARD_LINK } from "@/app/api/access/v1/members/me/subscriptions/[subscription_id]/card-link/route";
import { POST as FAIL } from "@/app/api/demo/failed-renewal/route";
import { GET as LINK_GET, PUT as LINK_PUT } from "@/app/api/member/card-link/[token]/route";
import { resetEnvCache } from "@/env.js";
import { formatDateTime, translator } from "@/i18n/translate";
import { formatInstant } from "@/server/dates.schema";
import { DEMO } from "@/server/seed/demo";
import { keepReadingWords } from "@/server/subscriptions/recurring/grace.schema";
import { signCardLink } from "@/server/subscriptions/self-service/card-link";
import { selfServiceOverview, updateSelfServicePaymentMethod } from "@/server/subscriptions/self-service/self-service";
import { demoCheckout, demoReaderJwt, seedDemoWithTools } from "@/server/testing/demo-checkout";
import { call } from "@/server/testing/engagement";
import { runJobsNow } from "@/server/testing/jobs";

afterEach(() => {
  delete process.env.DEMO_TOOLS;
  resetEnvCache();
});

type Wire = { id: number; in_grace_period: boolean; grace_ends_at: string | null; end_timestamp: string };

/** The demo account, a JWT reader subscribed to Yearly through demo_test, and the renewal failed now. */
async function readerInGrace(email: string) {
  const { db, accountId, plan: yearly } = await seedDemoWithTools("Yearly");
  const jwt = await demoReaderJwt(email);
  const q = `key=${DEMO.accountKey}&accesstype_jwt=${jwt}`;
  const { created } = await demoCheckout(jwt, { subscription_plan_id: yearly.id });
  expect(created.status).toBe(201);
  const failed = await call(FAIL, "POST", `/api/demo/failed-renewal?${q}`, {});
  expect(failed.status).toBe(200);
  const sub = ((await failed.json()) as { subscription: Wire }).subscription;
  expect(sub.in_grace_period).toBe(true);
  const row = await db.subscription.findUniqueOrThrow({ where: { id: sub.id } });
  return { db, accountId, jwt, sub, memberId: row.memberId };
}

describe("a subscription in its grace period", () => {
  it("is not 'Ended' on the self-service card: the card and the e-mail say the reader keeps reading until the grace end", async () => {
    const { db, accountId, sub, memberId } = await readerInGrace("grace-words@example.com");
    const now = new Date();
    const overview = await selfServiceOverview(db, { accountId, memberId, now, timeZone: "Europe/Paris" });
    const card = overview.subscriptions.find((c) => c.id === sub.id)!;
    expect(card.in_grace_period).toBe(true);
    expect(card.summary).not.toMatch(/Ended/);
    expect(card.summary).toContain(
      keepReadingWords(sub.grace_ends_at, (iso) => formatInstant(new Date(iso), "Europe/Paris")),
    );
    const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { timeZone: true } });
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { accountId, kind: "subscription.payment_failed" } });
    // The mail says the same in the reader's locale (English here) and the account's zone.
    expect(mail.text).toContain(
      translator("mail", "en")("dunningKeepReadingUntil", {
        date: formatDateTime(new Date(sub.grace_ends_at!), "en", account.timeZone),
      }),
    );
  });

  it("charges a card given on the self-service page at once: the reader leaves 'Payment failed'", async () => {
    const { db, accountId, sub, memberId } = await readerInGrace("grace-card@example.com");
    const before = await db.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(before.chargeRetryAt!.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
    await updateSelfServicePaymentMethod(db, {
      accountId,
      memberId,
      now: new Date(),
      subscriptionId: sub.id,
      paymentToken: "demo_method_visa-4242",
      extra: {},
    });
    // The jobs due now: the retry is one of them (not tomorrow's schedule).
    await runJobsNow(db);
    const after = await db.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(after).toMatchObject({ status: "ACTIVE", graceEndsAt: null, chargeRetryAt: null });
    expect(after.endTimestamp!.getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    expect(await db.dunningEpisode.findFirstOrThrow({ where: { subscriptionId: sub.id } })).toMatchObject({
      outcome: "RECOVERED",
    });
    const overview = await selfServiceOverview(db, { accountId, memberId, now: new Date(), timeZone: "UTC" });
    const card = overview.subscriptions.find((c) => c.id === sub.id)!;
    expect(card.in_grace_period).toBe(false);
    expect(card.summary).toMatch(/^Next payment: /);
  });

  it("the e-mail's and the banner's 'update your card' link works for a JWT reader without a session; a forged or expired one is refused", async () => {
    const { db, accountId, jwt, sub, memberId } = await readerInGrace("grace-link@example.com");
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { accountId, kind: "subscription.payment_failed" } });
    const mailed = /\/member\/card\/([0-9.]+[A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(mailed).toBeTruthy();
    // The banner asks the client API (with the reader's JWT) for the same kind of link.
    const minted = await call(
      CARD_LINK,
      "POST",
      `/api/access/v1/members/me/subscriptions/${sub.id}/card-link?key=${DEMO.accountKey}&accesstype_jwt=${jwt}`,
      { subscription_id: String(sub.id) },
    );
    expect(minted.status).toBe(200);
    const banner = /\/member\/card\/(.+)$/.exec(((await minted.json()) as { url: string }).url)?.[1];
    expect(banner).toBeTruthy();
    const link = (token: string) => `/api/member/card-link/${token}`;

    // Refused: forged (another subscription under the same signature), altered, expired, another key's.
    const [a, , m, exp, sig] = mailed!.split(".");
    const expired = signCardLink({
      accountId,
      subscriptionId: sub.id,
      memberId,
      expiresAt: new Date(Date.now() - 1000),
    });
    for (const bad of [
      `${a}.${sub.id + 1}.${m}.${exp}.${sig}`,
      `${a}.${sub.id}.${m}.${Number(exp) + 60}.${sig}`,
      expired,
    ]) {
      const res = await call(LINK_PUT, "PUT", link(bad), { token: bad }, { payment_token: "demo_method_visa-4242" });
      expect(res.status).toBe(401);
      expect((await call(LINK_GET, "GET", link(bad), { token: bad })).status).toBe(401);
    }
    expect(await db.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({
      paymentToken: "demo_card_expired",
    });

    // The mailed link: the subscription, then the new card, charged at once.
    const seen = await call(LINK_GET, "GET", link(mailed!), { token: mailed! });
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ id: sub.id, in_grace_period: true, can_update_payment_method: true });
    const put = await call(
      LINK_PUT,
      "PUT",
      link(banner!),
      { token: banner! },
      { payment_token: "demo_method_visa-4242" },
    );
    expect(put.status, await put.clone().text()).toBe(200);
    await runJobsNow(db);
    expect(await db.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({
      paymentToken: "demo_method_visa-4242",
      graceEndsAt: null,
    });
  });
});
