/** Test data for newsletter sends: a newsletter, and readers subscribed to it (one statement for many). */
import type { Db } from "../db/client";
import type { NewsletterAudience, NewsletterSubscriptionStatus, Prisma } from "../generated/prisma/client";

let counter = 0;

export async function insertNewsletter(
  db: Db,
  accountId: number,
  overrides: {
    name?: string;
    audience?: NewsletterAudience;
    planIds?: number[];
    trackClicks?: boolean;
    trackOpens?: boolean;
    design?: Prisma.InputJsonObject;
    replyTo?: string | null;
    digestCollectionId?: number | null;
    digestSchedule?: Prisma.InputJsonObject | null;
  } = {},
) {
  const n = counter++;
  return db.newsletter.create({
    data: {
      accountId,
      slug: `letter-${Date.now().toString(36)}-${n}`,
      name: overrides.name ?? "The Daily Briefing",
      senderName: "The Gazette",
      senderEmail: "briefing@gazette.test",
      replyTo: overrides.replyTo === undefined ? "letters@gazette.test" : overrides.replyTo,
      design: overrides.design ?? { accentColor: "#aa0000", footer: "1 Press Street, Springfield" },
      audience: overrides.audience ?? "OPT_IN",
      planIds: overrides.planIds ?? [],
      trackClicks: overrides.trackClicks ?? true,
      trackOpens: overrides.trackOpens ?? false,
      digestCollectionId: overrides.digestCollectionId ?? null,
      ...(overrides.digestSchedule ? { digestSchedule: overrides.digestSchedule } : {}),
    },
  });
}

/**
 * `count` members (reader<i>@<domain>) subscribed to the newsletter with `status`, written in
 * one statement each for members and subscriptions. Returns their ids and addresses in order.
 */
export async function insertSubscribers(
  db: Db,
  args: {
    accountId: number;
    newsletterId: number;
    count: number;
    prefix?: string;
    status?: NewsletterSubscriptionStatus;
    emailVerified?: boolean;
  },
): Promise<{ id: number; email: string }[]> {
  const prefix = args.prefix ?? `reader${counter++}x`;
  const status = (args.status ?? "ACTIVE").toLowerCase();
  const members = await db.$queryRaw<{ id: number; email: string }[]>`
    INSERT INTO members (account_id, name, email, password_hash, email_verified, created_at, updated_at)
    SELECT ${args.accountId}, 'Reader ' || i, ${prefix} || i || '@example.com', '!no-password', ${args.emailVerified ?? true}, now(), now()
      FROM generate_series(1, ${args.count}::int) AS i
    RETURNING id, email`;
  await db.$executeRaw`
    INSERT INTO newsletter_subscriptions (account_id, newsletter_id, member_id, status, consented_at, consent_source, created_at, updated_at)
    SELECT ${args.accountId}, ${args.newsletterId}, m.id, ${status}::newsletter_subscription_status, now(), 'test', now(), now()
      FROM unnest(${members.map((m) => m.id)}::int[]) AS m(id)`;
  return members.sort((a, b) => a.id - b.id);
}
