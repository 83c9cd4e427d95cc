/**
 * Paywall offers on a real database: the dashboard's saves (400 naming the field, 422 for the
 * catalogue's rules, nothing saved either way; one default; audited; roles) and the reader
 * endpoint's choice by segment (audience, newsletter, country, device), priority and default.
 */
import { describe, expect, it } from "vitest";

import { findOrCreateJwtMember } from "@/server/members/identities";
import { askOffer, copy, DESKTOP, IPHONE, jwtFor, offerWorld } from "@/server/testing/offer-fixtures";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import { insertTestSubscription } from "@/server/testing/subscription-fixtures";

describe("offers in the dashboard", () => {
  it("saves an offer with cleaned copy, refuses bad input naming the field, keeps one default", async () => {
    const { db, accountId, revenue, monthly, yearly } = await offerWorld();
    const saved = await revenue.caller.offers.create({
      name: "Welcome",
      planIds: [monthly.id, yearly.id],
      couponCode: "welcome20",
      trialDays: 7,
      isDefault: true,
      copy: [
        { locale: "en", headline: " <b>Half</b>  the price ", body: "Subscribe\u0007 today." },
        { locale: "fr", headline: "Bienvenue", body: "Abonnez-vous." },
      ],
      segment: { audiences: ["anonymous"], countries: ["in"] },
    });
    expect(saved).toMatchObject({
      couponCode: "WELCOME20",
      trialDays: 7,
      isDefault: true,
      segment: { audiences: ["anonymous"], countries: ["IN"], newsletter: null, devices: [] },
    });
    expect(saved.copy).toContainEqual({ locale: "en", headline: "Half the price", body: "Subscribe today." });

    const bad = async (input: Record<string, unknown>) => {
      const error = await revenue.caller.offers
        .create({ name: "Bad", planIds: [monthly.id], copy: copy("Hi"), ...input })
        .then(
          () => null,
          (e: unknown) => e as { code: string; message: string; data?: { appError?: unknown } },
        );
      return error;
    };
    expect((await bad({ planIds: [] }))?.code).toBe("BAD_REQUEST");
    expect((await bad({ copy: [{ locale: "en", headline: "<p></p>", body: "x" }] }))?.code).toBe("BAD_REQUEST");
    expect((await bad({ segment: { countries: ["India"] } }))?.code).toBe("BAD_REQUEST");
    expect((await bad({ defaultLocale: "fr" }))?.code).toBe("BAD_REQUEST");
    // Rules of the catalogue: 422 naming the field.
    expect((await bad({ couponCode: "NOPE" }))?.message).toMatch(/couponCode is not a coupon/);
    expect((await bad({ planIds: [yearly.id], trialDays: 3 }))?.message).toMatch(
      /trialDays cannot be given: no plan of this offer has a trial/,
    );
    expect((await bad({ trialDays: 30 }))?.message).toMatch(/trialDays is longer than plan "Monthly" allows/);
    expect((await bad({ planIds: [999999] }))?.message).toMatch(/planIds names plan 999999/);
    expect(await db.offer.count({ where: { accountId } })).toBe(1);

    const second = await revenue.caller.offers.create({
      name: "Other",
      planIds: [yearly.id],
      copy: copy("Yearly"),
      isDefault: true,
    });
    const rows = await db.offer.findMany({ where: { accountId }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.isDefault)).toEqual([false, true]);
    expect(
      await trpcCodeOf(revenue.caller.offers.create({ name: "Other", planIds: [yearly.id], copy: copy("Again") })),
    ).toBe("CONFLICT");
    expect(await db.auditLog.count({ where: { accountId, action: { in: ["offer.create", "offer.update"] } } })).toBe(2);
    await revenue.caller.offers.archive({ id: second.id });
    expect((await revenue.caller.offers.list()).map((o) => o.name)).toEqual(["Welcome"]);

    const editor = await createTestStaff(db, { roles: ["EDITOR"], account: accountId });
    expect(await trpcCodeOf(editor.caller.offers.list())).toBe("FORBIDDEN");
    expect(
      await trpcCodeOf(revenue.caller.offers.start({ name: "t", offerAId: 1, offerBId: 2, goal: "subscriptions" })),
    ).toBe("FORBIDDEN");
  });
});

describe("the offer a reader gets", () => {
  it("matches audience, newsletter, country and device by priority, then the default", async () => {
    const { db, accountId, revenue, monthly, yearly, jwtSecret } = await offerWorld();
    const make = (
      name: string,
      priority: number,
      segment: Record<string, unknown>,
      extra: Record<string, unknown> = {},
    ) =>
      revenue.caller.offers.create({
        name,
        priority,
        planIds: [monthly.id],
        copy: copy(name),
        segment,
        ...extra,
      });
    await make("Default", 1000, {}, { isDefault: true, planIds: [yearly.id] });
    await make("Phones from India", 10, { countries: ["IN"], devices: ["mobile"] });
    await make("Newsletter", 20, { newsletter: true });
    await make("Come back", 30, { audiences: ["lapsed"] });
    await make("Registered", 40, { audiences: ["registered"] }, { couponCode: "WELCOME20", trialDays: 7 });

    const headline = async (query: Record<string, string>, headers?: Record<string, string>) => {
      const { status, body } = await askOffer({ readerId: "browser-1", ...query }, headers);
      expect(status).toBe(200);
      return body.offer?.headline ?? null;
    };
    expect(await headline({})).toBe("Default");
    expect(await headline({}, { "user-agent": IPHONE, "cf-ipcountry": "in" })).toBe("Phones from India");
    expect(await headline({}, { "user-agent": DESKTOP, "cf-ipcountry": "IN" })).toBe("Default");
    expect(await headline({}, { "sec-ch-ua-mobile": "?1", "user-agent": DESKTOP, "cf-ipcountry": "IN" })).toBe(
      "Phones from India",
    );
    expect(await headline({ utm_medium: "Email" })).toBe("Newsletter");
    expect(await headline({ ref: "newsletter" })).toBe("Newsletter");

    const jwt = await jwtFor("reg-1", jwtSecret);
    const registered = await askOffer({ accesstype_jwt: jwt, readerId: "browser-1" });
    expect(registered.body.offer).toMatchObject({ headline: "Registered", coupon_code: "WELCOME20", trial_days: 7 });
    // The coupon's price for the plan it applies to (WELCOME20: 20 % off Monthly's 900 cents).
    expect(registered.body.offer?.plans).toEqual([
      expect.objectContaining({ id: monthly.id, price_cents: 900, offer_price_cents: 720, trial_days: 7 }),
    ]);

    // A lapsed reader: a subscription that ended.
    const member = await findOrCreateJwtMember(db, {
      accountId,
      user: { id: "lapsed-1", name: "L", email: "lapsed-1@example.com", avatarUrl: null, provider: null },
      now: new Date(),
    });
    await insertTestSubscription(db, {
      accountId,
      memberId: member.id,
      planId: monthly.id,
      status: "EXPIRED",
      start: new Date(Date.now() - 60 * 86_400_000),
      end: new Date(Date.now() - 30 * 86_400_000),
    });
    expect((await askOffer({ accesstype_jwt: await jwtFor("lapsed-1", jwtSecret) })).body.offer?.headline).toBe(
      "Come back",
    );

    // 400 naming the field.
    const bad = await askOffer({ readerId: "has space" });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details?.[0]?.field).toBe("query.readerId");
  });

  it("answers the copy in the asked locale, else the offer's default locale", async () => {
    const { revenue, monthly } = await offerWorld();
    await revenue.caller.offers.create({
      name: "Bilingual",
      isDefault: true,
      planIds: [monthly.id],
      defaultLocale: "fr",
      copy: [
        { locale: "fr", headline: "Abonnez-vous", body: "Tout lire." },
        { locale: "ar", headline: "اشترك", body: "اقرأ كل شيء." },
      ],
    });
    expect((await askOffer({ locale: "ar-EG" })).body.offer).toMatchObject({
      headline: "اشترك",
      locale: "ar",
      dir: "rtl",
    });
    expect((await askOffer({ locale: "de" })).body.offer).toMatchObject({
      headline: "Abonnez-vous",
      locale: "fr",
      dir: "ltr",
    });
  });
});
