/**
 * The demo publisher's catalogue: a public "Digital" group with a monthly and a yearly plan, a
 * campaign, a welcome coupon and a tax rule, made through the services (so audited as the seed).
 * Skipped when the account already has a subscription group (a re-run creates nothing).
 */
import "server-only";

import { systemActor } from "../auth/actor";
import type { Db } from "../db/client";
import { createAsset } from "../subscriptions/assets";
import { createCoupon } from "../subscriptions/coupons";
import { createGroup } from "../subscriptions/groups";
import { createPlan } from "../subscriptions/plans";
import { createTaxRule } from "../subscriptions/taxes";
import type { SeedReport } from "./demo";

export async function seedDemoCatalogue(
  db: Db,
  args: { accountId: number; now?: Date },
  report: SeedReport,
): Promise<void> {
  if (await db.subscriptionGroup.count({ where: { accountId: args.accountId } })) return;
  const actor = systemActor(args.accountId, "seed");
  const site = await createAsset(db, { actor, input: { title: "The whole site", type: "site" } });
  const premium = await createAsset(db, {
    actor,
    input: { title: "Premium stories", type: "story", metadata: { access_level: 1000 } },
  });
  const digital = await createGroup(db, {
    actor,
    input: {
      name: "Digital access",
      description: "Every story on every device.",
      assetIds: [site.id, premium.id],
      metadataFields: ["address"],
    },
  });
  const common = { groupId: digital.id, priceCurrency: "USD", recurring: true, supportedPaymentProviders: ["manual"] };
  const monthly = await createPlan(db, {
    actor,
    input: {
      ...common,
      title: "Monthly",
      description: "Billed every month. Cancel any time.",
      durationLength: 1,
      durationUnit: "months",
      priceCents: 900,
      prices: { EUR: { amount_cents: 850 }, INR: { amount_cents: 29900 } },
      trialPeriodEnabled: true,
      maxTrialPeriodLength: 14,
      maxTrialPeriodUnit: "days",
    },
  });
  await createPlan(db, {
    actor,
    input: {
      ...common,
      title: "Yearly",
      description: "Two months free.",
      durationLength: 1,
      durationUnit: "years",
      priceCents: 9000,
      prices: { EUR: { amount_cents: 8500 }, INR: { amount_cents: 299000 } },
    },
  });
  const campaign = await createGroup(db, {
    actor,
    input: {
      name: "Fund our climate desk",
      description: "Help us hire two reporters for a year.",
      subscriptionType: "campaign",
      currency: "USD",
      targetAmountCents: 5_000_000,
    },
  });
  await createPlan(db, {
    actor,
    input: {
      groupId: campaign.id,
      title: "Supporter",
      durationLength: 1,
      durationUnit: "years",
      priceCents: 5000,
      priceCurrency: "USD",
      supportedPaymentProviders: ["manual"],
    },
  });
  await createCoupon(db, {
    actor,
    input: {
      code: "WELCOME20",
      title: "20 % off your first month",
      discountType: "percent",
      percentOff: 20,
      validFrom: args.now ?? new Date(),
      maxRedemptions: 1000,
      maxRedemptionsPerSubscriber: 1,
      planIds: [monthly.id],
    },
  });
  await createTaxRule(db, { actor, input: { name: "GST", rateBasisPoints: 1800, country: "IN", inclusive: true } });
  report.created.push("subscription catalogue (2 groups, 3 plans, a coupon, a tax rule)");
}
