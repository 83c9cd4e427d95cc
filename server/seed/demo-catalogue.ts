/**
 * The demo publisher's catalogue: a public "Digital access" group with a monthly and a yearly
 * plan, a campaign, a welcome coupon and a tax rule. Written as rows (the seed runs outside the
 * server runtime, where the audited services, which are server-only, cannot be loaded); every
 * value keeps the services' rules (server/subscriptions/catalogue/catalogue-rules.ts), which the
 * integration test checks. Skipped when the account already has a subscription group.
 */
import type { Db } from "../db/client";
import type { SeedReport } from "./demo";

/** The group the demo paywall offers (app/demo/paywall). */
export const DEMO_GROUP_NAME = "Digital access";

export async function seedDemoCatalogue(
  db: Db,
  args: { accountId: number; now?: Date },
  report: SeedReport,
): Promise<void> {
  const { accountId } = args;
  if (await db.subscriptionGroup.count({ where: { accountId } })) return;
  const site = await db.subscriptionAsset.create({ data: { accountId, title: "The whole site", type: "SITE" } });
  const premium = await db.subscriptionAsset.create({
    data: { accountId, title: "Premium stories", type: "STORY", metadata: { access_level: 1000 } },
  });
  const digital = await db.subscriptionGroup.create({
    data: {
      accountId,
      name: DEMO_GROUP_NAME,
      description: "Every story on every device.",
      metadataFields: ["address"],
      assets: {
        create: [
          { assetId: site.id, role: "ASSETS", position: 0 },
          { assetId: premium.id, role: "ASSETS", position: 1 },
        ],
      },
    },
  });
  const common = {
    accountId,
    groupId: digital.id,
    priceCurrency: "USD",
    recurring: true,
    supportedPaymentProviders: ["manual"],
    // Dunning: a failed renewal is retried after 1, 3 and 5 days, within 7 days of grace.
    chargeRetryDays: [1, 3, 5],
    gracePeriodDays: 7,
  };
  const monthly = await db.subscriptionPlan.create({
    data: {
      ...common,
      title: "Monthly",
      description: "Billed every month. Cancel any time.",
      durationLength: 1,
      durationUnit: "MONTHS",
      priceCents: 900,
      prices: { USD: { amount_cents: 900 }, EUR: { amount_cents: 850 }, INR: { amount_cents: 29900 } },
      trialPeriodEnabled: true,
      maxTrialPeriodLength: 14,
      maxTrialPeriodUnit: "DAYS",
    },
  });
  await db.subscriptionPlan.create({
    data: {
      ...common,
      title: "Yearly",
      description: "Two months free.",
      durationLength: 1,
      durationUnit: "YEARS",
      priceCents: 9000,
      prices: { USD: { amount_cents: 9000 }, EUR: { amount_cents: 8500 }, INR: { amount_cents: 299000 } },
    },
  });
  const campaign = await db.subscriptionGroup.create({
    data: {
      accountId,
      name: "Fund our climate desk",
      description: "Help us hire two reporters for a year.",
      subscriptionType: "CAMPAIGN",
      currency: "USD",
      targetAmountCents: 5_000_000,
    },
  });
  await db.subscriptionPlan.create({
    data: {
      accountId,
      groupId: campaign.id,
      title: "Supporter",
      durationLength: 1,
      durationUnit: "YEARS",
      priceCents: 5000,
      priceCurrency: "USD",
      prices: { USD: { amount_cents: 5000 } },
      supportedPaymentProviders: ["manual"],
    },
  });
  await db.coupon.create({
    data: {
      accountId,
      code: "WELCOME20",
      title: "20 % off your first month",
      discountType: "PERCENT",
      percentOff: 20,
      validFrom: args.now ?? new Date(),
      maxRedemptions: 1000,
      maxRedemptionsPerSubscriber: 1,
      planIds: [monthly.id],
    },
  });
  await db.taxRule.create({
    data: { accountId, name: "GST", rateBasisPoints: 1800, country: "IN", inclusive: true },
  });
  report.created.push("subscription catalogue (2 groups, 3 plans, a coupon, a tax rule)");
}
