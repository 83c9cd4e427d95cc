/**
 * Data for the access benchmarks (`npm run db:seed -- --access`; npm run bench does it): on the
 * demo account, after the generated stories (./large-content.ts) exist —
 *
 * - every 20th generated story (bench/story-000020, …-000040, …) becomes a subscription story
 *   (`access = 'subscription'`), the rest stay public;
 * - a site-wide plan ("Bench access") and SUBSCRIBERS readers (members with a publisher-JWT
 *   identity `bench-subscriber-NNNN`), each with an active subscription on it;
 * - the meter: 5 free stories a month, anonymous readers metered (an existing row is kept), and
 *   ANONYMOUS anonymous readers (`bench-anon-NNNNN`) with 0 to 4 stories counted this month;
 * - ANALYZE of the tables the decision reads.
 *
 * Idempotent: a second run adds nothing (the rows are found by their names). Same SQL on PGlite.
 */
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { meterPeriodStart } from "../subscriptions/access/meter-period";
import { LARGE_SLUG_PREFIX } from "./large-content";

const ACCESS_BENCH = {
  subscribers: 1_000,
  anonymous: 5_000,
  everyNthStory: 20,
  subscriberPrefix: "bench-subscriber-",
  anonymousPrefix: "bench-anon-",
  planTitle: "Bench access",
} as const;

export type LargeAccessResult = {
  accountId: number;
  /** Ids of the subscription stories (at most 2,000). */
  storyIds: string[];
  /** JWT `id` claims of the subscribers. */
  subscriberIds: string[];
  /** readerId values of anonymous readers with a meter history. */
  anonymousIds: string[];
};

const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

export async function seedLargeAccess(db: Db, args: { accountId: number; now?: Date }): Promise<LargeAccessResult> {
  const { accountId } = args;
  const now = args.now ?? new Date();
  const B = ACCESS_BENCH;
  await db.$executeRawUnsafe(`
    UPDATE stories SET access = 'subscription'
    WHERE account_id = ${accountId} AND slug LIKE ${lit(`${LARGE_SLUG_PREFIX}%`)}
      AND substr(slug, ${LARGE_SLUG_PREFIX.length + 1})::int % ${B.everyNthStory} = 0
      AND access <> 'subscription'`);

  await withTransaction(
    db,
    async (tx) => {
      let plan = await tx.subscriptionPlan.findFirst({
        where: { accountId, title: B.planTitle },
        include: { group: true },
      });
      if (!plan) {
        const site = await tx.subscriptionAsset.create({
          data: { accountId, title: "Bench: the whole site", type: "SITE" },
        });
        const group = await tx.subscriptionGroup.create({
          data: {
            accountId,
            name: B.planTitle,
            public: false,
            assets: { create: { assetId: site.id, role: "ASSETS" } },
          },
        });
        plan = await tx.subscriptionPlan.create({
          data: {
            accountId,
            groupId: group.id,
            title: B.planTitle,
            durationLength: 1,
            durationUnit: "YEARS",
            priceCents: 9900,
            priceCurrency: "USD",
          },
          include: { group: true },
        });
      }
      await tx.$executeRawUnsafe(`
        INSERT INTO members (account_id, name, email, password_hash, source, created_at, updated_at)
        SELECT ${accountId}, 'Bench subscriber ' || n,
               ${lit(B.subscriberPrefix)} || lpad(n::text, 4, '0') || '@identities.invalid', '!no-password', 'publisher', now(), now()
        FROM generate_series(1, ${B.subscribers}) AS n
        ON CONFLICT (account_id, email) DO NOTHING`);
      await tx.$executeRawUnsafe(`
        INSERT INTO member_identities (account_id, provider, external_id, member_id, created_at, updated_at)
        SELECT ${accountId}, 'publisher', split_part(m.email, '@', 1), m.id, now(), now()
        FROM members m
        WHERE m.account_id = ${accountId} AND m.email LIKE ${lit(`${B.subscriberPrefix}%@identities.invalid`)}
        ON CONFLICT (account_id, provider, external_id) DO NOTHING`);
      await tx.$executeRawUnsafe(`
        INSERT INTO subscriptions (account_id, subscriber_id, subscription_type, subscription_plan_id, subscription_group_id,
          created_by, status, start_timestamp, end_timestamp, plan_name, duration_length, duration_unit,
          plan_amount_cents, plan_amount_currency, payment_type, payment_amount_cents, payment_amount_currency, created_at, updated_at)
        SELECT ${accountId}, m.id, 'standard', ${plan.id}, ${plan.groupId}, 'dashboard', 'active',
          now() - INTERVAL '30 days', now() + INTERVAL '10 years', ${lit(B.planTitle)}, 1, 'years', 9900, 'USD', 'manual', 9900, 'USD', now(), now()
        FROM members m
        WHERE m.account_id = ${accountId} AND m.email LIKE ${lit(`${B.subscriberPrefix}%@identities.invalid`)}
          AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.subscriber_id = m.id)`);
      await tx.meterSettings.upsert({
        where: { accountId },
        create: {
          accountId,
          enabled: true,
          freeStories: 5,
          periodLength: 1,
          periodUnit: "MONTHS",
          meterAnonymous: true,
        },
        update: {},
      });
    },
    { timeout: 120_000 },
  );

  const period = meterPeriodStart(now, 1, "MONTHS").toISOString();
  // Each anonymous reader has read (n % 5) subscription stories this month.
  await db.$executeRawUnsafe(`
    WITH picked AS (
      SELECT array_agg(id::text ORDER BY slug) AS ids FROM (
        SELECT id, slug FROM stories
        WHERE account_id = ${accountId} AND access = 'subscription' ORDER BY slug LIMIT 60
      ) s
    )
    INSERT INTO meter_views (account_id, reader_key, period_start, story_id, created_at)
    SELECT ${accountId}, 'r:' || ${lit(B.anonymousPrefix)} || lpad(n::text, 5, '0'), '${period}'::timestamptz,
           picked.ids[1 + ((n * 7 + k) % array_length(picked.ids, 1))], now()
    FROM picked, generate_series(1, ${B.anonymous}) AS n, generate_series(1, 4) AS k
    WHERE k <= n % 5 AND array_length(picked.ids, 1) > 0
    ON CONFLICT (account_id, reader_key, period_start, story_id) DO NOTHING`);
  for (const table of ["stories", "members", "member_identities", "subscriptions", "meter_views"]) {
    await db.$executeRawUnsafe(`ANALYZE ${table}`);
  }

  const stories = await db.story.findMany({
    where: { accountId, access: "subscription", status: "PUBLISHED", slug: { startsWith: LARGE_SLUG_PREFIX } },
    select: { id: true },
    take: 2_000,
  });
  return {
    accountId,
    storyIds: stories.map((s) => s.id),
    subscriberIds: Array.from(
      { length: B.subscribers },
      (_, i) => `${B.subscriberPrefix}${String(i + 1).padStart(4, "0")}`,
    ),
    anonymousIds: Array.from(
      { length: B.anonymous },
      (_, i) => `${B.anonymousPrefix}${String(i + 1).padStart(5, "0")}`,
    ),
  };
}
