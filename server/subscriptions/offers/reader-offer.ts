/**
 * The offer a reader gets on the paywall (GET /api/access/v1/offer): the reader's facts
 * (./segment.ts) from the JWT, the page's context and the request's headers; then the first
 * running test whose segment holds (oldest first), which puts the reader in an arm and records
 * the exposure once (INSERT … ON CONFLICT DO NOTHING on experiment and reader: parallel calls
 * write one row and all answer its arm); else the first enabled offer whose segment holds, by
 * priority; else the default offer; else none (the page shows its own plans).
 */
import "server-only";

import { directionOf, matchLocale, type Locale } from "@/i18n/locales";

import type { ApiUser } from "../../auth/api-auth";
import type { Db } from "../../db/client";
import type { Offer } from "../../generated/prisma/client";
import { findJwtMember } from "../../members/identities";
import { couponDiscount, couponIssue } from "../checkout/pricing";
import { accessGrantingWhere } from "../subscribers/subscription-state";
import { assignArm, readerKeyOf, type Arm } from "./assignment";
import { planIdsOf, segmentOf } from "./offers";
import { countryOf, deviceOf, firstMatching, isFromNewsletter, type Audience, type ReaderFacts } from "./segment";

type ReaderOfferContext = {
  accountId: number;
  user: ApiUser | null;
  readerId: string | null;
  locale: string | null;
  utmMedium: string | null;
  ref: string | null;
  headers: { country: string | null; chUaMobile: string | null; userAgent: string | null };
  now: Date;
};

type ReaderOfferPlan = {
  id: number;
  title: string;
  price_cents: number;
  price_currency: string;
  /** The price with the offer's coupon, when it applies to the plan; null otherwise. */
  offer_price_cents: number | null;
  /** Trial days asked at checkout, when the plan has a trial (the offer's, else the plan's own). */
  trial_days: number | null;
};

export type ReaderOffer = {
  offer: {
    id: number;
    headline: string;
    body: string;
    locale: string;
    dir: "ltr" | "rtl";
    coupon_code: string | null;
    trial_days: number | null;
    plans: ReaderOfferPlan[];
  } | null;
  experiment: { id: string; arm: Arm; exposure_id: string } | null;
};

/** anonymous, registered, lapsed or subscriber (./segment.ts). */
async function audienceOf(db: Db, accountId: number, user: ApiUser | null, now: Date): Promise<Audience> {
  if (!user) return "anonymous";
  const member = await findJwtMember(db, { accountId, userId: user.id });
  if (!member) return "registered";
  const current = await db.subscription.count({ where: { memberId: member.id, ...accessGrantingWhere(now) } });
  if (current) return "subscriber";
  const ended = await db.subscription.count({
    where: {
      memberId: member.id,
      deletedAt: null,
      status: { in: ["ACTIVE", "CANCELLED", "EXPIRED"] },
      endTimestamp: { lte: now },
    },
  });
  return ended ? "lapsed" : "registered";
}

async function readerFacts(db: Db, ctx: ReaderOfferContext): Promise<ReaderFacts> {
  return {
    audience: await audienceOf(db, ctx.accountId, ctx.user, ctx.now),
    fromNewsletter: isFromNewsletter(ctx.utmMedium, ctx.ref),
    country: countryOf(ctx.headers.country),
    device: deviceOf(ctx.headers.chUaMobile, ctx.headers.userAgent),
  };
}

/** One row per reader per experiment; the arm of the row that exists wins (it was the hash's anyway). */
async function recordExposure(
  db: Db,
  args: { experimentId: string; readerKey: string; arm: Arm; offerId: number },
): Promise<{ id: string; arm: Arm }> {
  await db.$executeRaw`
    INSERT INTO experiment_exposures (id, experiment_id, reader_key, arm, offer_id)
    VALUES (gen_random_uuid(), ${args.experimentId}::uuid, ${args.readerKey}, ${args.arm}, ${args.offerId})
    ON CONFLICT (experiment_id, reader_key) DO NOTHING`;
  const row = await db.experimentExposure.findUniqueOrThrow({
    where: { experimentId_readerKey: { experimentId: args.experimentId, readerKey: args.readerKey } },
    select: { id: true, arm: true },
  });
  return { id: row.id, arm: row.arm === "b" ? "b" : "a" };
}

async function offerPlans(db: Db, accountId: number, offer: Offer, now: Date): Promise<ReaderOfferPlan[]> {
  const ids = planIdsOf(offer.planIds);
  const plans = await db.subscriptionPlan.findMany({
    where: { accountId, id: { in: ids }, deletedAt: null, enabled: true },
  });
  const coupon = offer.couponCode
    ? await db.coupon.findUnique({ where: { accountId_code: { accountId, code: offer.couponCode } } })
    : null;
  const byId = new Map(plans.map((p) => [p.id, p]));
  return ids.flatMap((id) => {
    const p = byId.get(id);
    if (!p) return [];
    const applies =
      coupon &&
      !couponIssue(coupon, {
        planId: p.id,
        groupId: p.groupId,
        currency: p.priceCurrency,
        now,
        subscriberRedemptions: null,
      });
    const hasTrial = p.recurring && p.trialPeriodEnabled && p.maxTrialPeriodLength !== null;
    return [
      {
        id: p.id,
        title: p.title,
        price_cents: p.priceCents,
        price_currency: p.priceCurrency,
        offer_price_cents: applies
          ? p.priceCents - couponDiscount(coupon, p.priceCents, p.priceCurrency).discountCents
          : null,
        trial_days: hasTrial ? offer.trialDays : null,
      },
    ];
  });
}

function offerCopy(offer: Offer, asked: string | null): { headline: string; body: string; locale: Locale } {
  const copy = new Map(Object.entries((offer.copy ?? {}) as Record<string, { headline: string; body: string }>));
  const offered = [...copy.keys()].filter((l): l is Locale => matchLocale(l) === l);
  const locale = matchLocale(asked, offered) ?? matchLocale(offer.defaultLocale) ?? "en";
  const c = copy.get(locale) ?? copy.get(offer.defaultLocale) ?? { headline: offer.name, body: "" };
  return { ...c, locale };
}

export async function offerForReader(db: Db, ctx: ReaderOfferContext): Promise<ReaderOffer> {
  const facts = await readerFacts(db, ctx);
  const readerKey = readerKeyOf(ctx.user?.id ?? null, ctx.readerId);
  let offer: Offer | null = null;
  let experiment: ReaderOffer["experiment"] = null;
  if (readerKey && facts.audience !== "subscriber") {
    const running = await db.experiment.findMany({
      where: { accountId: ctx.accountId, status: "running" },
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
    });
    const test = firstMatching(
      running.map((e) => ({ ...e, segment: segmentOf(e.segment) })),
      facts,
    );
    if (test) {
      const arm = assignArm(test.id, readerKey, test.splitA);
      const offerId = arm === "a" ? test.offerAId : test.offerBId;
      const exposure = await recordExposure(db, { experimentId: test.id, readerKey, arm, offerId });
      offer = await db.offer.findFirst({
        where: { id: exposure.arm === "a" ? test.offerAId : test.offerBId, accountId: ctx.accountId },
      });
      experiment = { id: test.id, arm: exposure.arm, exposure_id: exposure.id };
    }
  }
  if (!offer) {
    const offers = await db.offer.findMany({
      where: { accountId: ctx.accountId, archivedAt: null, enabled: true },
      orderBy: [{ priority: "asc" }, { id: "asc" }],
    });
    const candidates = offers.filter((o) => !o.isDefault).map((o) => ({ row: o, segment: segmentOf(o.segment) }));
    offer = firstMatching(candidates, facts)?.row ?? offers.find((o) => o.isDefault) ?? null;
  }
  if (!offer) return { offer: null, experiment: null };
  const copy = offerCopy(offer, ctx.locale);
  return {
    offer: {
      id: offer.id,
      headline: copy.headline,
      body: copy.body,
      locale: copy.locale,
      dir: directionOf(copy.locale),
      coupon_code: offer.couponCode,
      trial_days: offer.trialDays,
      plans: await offerPlans(db, ctx.accountId, offer, ctx.now),
    },
    experiment,
  };
}
