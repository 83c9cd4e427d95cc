/**
 * Who receives a newsletter now, page by page (keyset on the member's id):
 *
 * - the member's subscription to the newsletter is ACTIVE (PENDING ones wait for their double
 *   opt-in; UNSUBSCRIBED ones left);
 * - the newsletter's audience admits the member: OPT_IN everyone subscribed; MEMBERS only members
 *   with a verified e-mail; PAYING only members with a live subscription (the one rule of
 *   ../subscriptions/subscribers/subscription-state.ts `accessGrantingWhere`: active or cancelled, started, not
 *   ended or in grace, not deleted) to one of `planIds`, to any plan when `planIds` is empty;
 * - the member has an address (its e-mail, or for a member known only by outside identities its
 *   communication e-mail) and the account does not suppress it (email_suppressions).
 *
 * Addresses are lower-cased, as deliveries and suppressions store them.
 */
import type { Db } from "../db/client";
import type { NewsletterAudience, Prisma } from "../generated/prisma/client";
import { isPlaceholderEmail } from "../members/identities";
import { accessGrantingWhere } from "../subscriptions/subscribers/subscription-state";
import { suppressedAmong } from "./suppression";

type AudienceNewsletter = { id: number; accountId: number; audience: NewsletterAudience; planIds: number[] };
type Recipient = { memberId: number; email: string };
type RecipientPage = { items: Recipient[]; nextAfter: number | null };

const AUDIENCE_PAGE_SIZE = 1000;

const ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/;

/** The address a newsletter goes to for a member, lower-cased; null when it has none. */
export function memberAddress(member: { email: string; communicationEmail: string | null }): string | null {
  const address = isPlaceholderEmail(member.email) ? member.communicationEmail : member.email;
  if (!address) return null;
  const lower = address.trim().toLowerCase();
  return ADDRESS.test(lower) && !lower.endsWith(".invalid") ? lower : null;
}

/** The members the audience admits, besides their subscription (a Prisma filter on Member). */
function audienceMemberWhere(newsletter: AudienceNewsletter, now: Date): Prisma.MemberWhereInput {
  switch (newsletter.audience) {
    case "OPT_IN":
      return {};
    case "MEMBERS":
      return { emailVerified: true };
    case "PAYING":
      return {
        subscriptions: {
          some: {
            accountId: newsletter.accountId,
            ...accessGrantingWhere(now),
            ...(newsletter.planIds.length ? { planId: { in: newsletter.planIds } } : {}),
          },
        },
      };
  }
}

/** One page of recipients after member id `after` (0: from the start). */
export async function audiencePage(
  db: Db,
  args: { newsletter: AudienceNewsletter; now: Date; after?: number; limit?: number },
): Promise<RecipientPage> {
  const limit = args.limit ?? AUDIENCE_PAGE_SIZE;
  const rows = await db.newsletterSubscription.findMany({
    where: {
      accountId: args.newsletter.accountId,
      newsletterId: args.newsletter.id,
      status: "ACTIVE",
      memberId: { gt: args.after ?? 0 },
      member: { accountId: args.newsletter.accountId, ...audienceMemberWhere(args.newsletter, args.now) },
    },
    orderBy: { memberId: "asc" },
    take: limit,
    select: { member: { select: { id: true, email: true, communicationEmail: true } } },
  });
  const addressed = rows.flatMap(({ member }) => {
    const email = memberAddress(member);
    return email ? [{ memberId: member.id, email }] : [];
  });
  const suppressed = await suppressedAmong(db, {
    accountId: args.newsletter.accountId,
    emails: addressed.map((r) => r.email),
  });
  return {
    items: addressed.filter((r) => !suppressed.has(r.email)),
    nextAfter: rows.length === limit ? rows.at(-1)!.member.id : null,
  };
}

/** Every recipient, page by page. */
export async function* audience(
  db: Db,
  args: { newsletter: AudienceNewsletter; now: Date; pageSize?: number },
): AsyncGenerator<Recipient[]> {
  let after = 0;
  for (;;) {
    const page = await audiencePage(db, { ...args, after, limit: args.pageSize });
    if (page.items.length) yield page.items;
    if (page.nextAfter === null) return;
    after = page.nextAfter;
  }
}

/** How many would receive the newsletter now (the editor's confirmation). */
export async function audienceCount(db: Db, args: { newsletter: AudienceNewsletter; now: Date }): Promise<number> {
  let count = 0;
  for await (const page of audience(db, args)) count += page.length;
  return count;
}
