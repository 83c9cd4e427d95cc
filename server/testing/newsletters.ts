/**
 * Newsletters for tests, written as plain rows (no job, no mail): an account's newsletter, members
 * subscribed to it (ACTIVE, consent "dashboard"), a send and one delivery per member with what
 * happened to it (sent, bounced, failed; opened, clicked, unsubscribed at given times). Test
 * support: imported by tests only.
 */
import { getEnv } from "../../env.js";
import type { Db } from "../db/client";
import type { NewsletterDeliveryStatus } from "../generated/prisma/enums";
import { newsletterTokenKey } from "../newsletters/tokens";
import { createTestPublisher } from "./publishing-factories";

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** The signing key the routes use in tests (AUTH_SECRET of the test environment). */
export const testNewsletterKey = () => newsletterTokenKey(getEnv());

export async function insertTestNewsletter(
  db: Db,
  accountId: number,
  overrides: { slug?: string; name?: string; trackOpens?: boolean; trackClicks?: boolean } = {},
) {
  const slug = overrides.slug ?? unique("briefing");
  return db.newsletter.create({
    data: {
      accountId,
      slug,
      name: overrides.name ?? "Morning briefing",
      senderName: "The Test Gazette",
      senderEmail: "news@example.com",
      trackOpens: overrides.trackOpens ?? true,
      trackClicks: overrides.trackClicks ?? true,
    },
  });
}

/** `count` members of the account, each ACTIVE on the newsletter since `consentedAt`. */
export async function insertSubscribedMembers(
  db: Db,
  newsletter: { id: number; accountId: number },
  count: number,
  options: { consentedAt?: Date; emailPrefix?: string } = {},
) {
  const members = [];
  const prefix = options.emailPrefix ?? unique("reader");
  for (let i = 0; i < count; i++) {
    const member = await db.member.create({
      data: {
        accountId: newsletter.accountId,
        name: `Reader ${i + 1}`,
        email: `${prefix}-${i + 1}@example.com`,
        passwordHash: "-",
      },
    });
    await db.newsletterSubscription.create({
      data: {
        accountId: newsletter.accountId,
        newsletterId: newsletter.id,
        memberId: member.id,
        status: "ACTIVE",
        consentedAt: options.consentedAt ?? new Date("2026-11-01T00:00:00Z"),
        consentSource: "dashboard",
      },
    });
    members.push(member);
  }
  return members;
}

/** What happened to one delivery of a test send. */
type TestDeliveryOutcome = {
  status?: NewsletterDeliveryStatus;
  openedAt?: Date | null;
  /** Its clicks' times (the first is the delivery's clickedAt). */
  clicks?: Date[];
  unsubscribedAt?: Date | null;
};

/** A SENT send of the newsletter with one delivery per member (outcomes by index; default SENT, nothing else). */
export async function insertTestSend(
  db: Db,
  newsletter: { id: number; accountId: number },
  members: readonly { id: number; email: string }[],
  options: { subject?: string; sentAt?: Date; outcomes?: readonly TestDeliveryOutcome[] } = {},
) {
  const sentAt = options.sentAt ?? new Date("2026-11-20T07:00:00Z");
  const send = await db.newsletterSend.create({
    data: {
      accountId: newsletter.accountId,
      newsletterId: newsletter.id,
      kind: "story",
      dedupeKey: unique("story"),
      subject: options.subject ?? "Today's briefing",
      status: "SENT",
      recipients: members.length,
      scheduledAt: sentAt,
      startedAt: sentAt,
      finishedAt: sentAt,
      createdAt: sentAt,
    },
  });
  const deliveries = [];
  for (const [i, member] of members.entries()) {
    const outcome = options.outcomes?.[i] ?? {};
    const status = outcome.status ?? "SENT";
    const clicks = outcome.clicks ?? [];
    const delivery = await db.newsletterDelivery.create({
      data: {
        accountId: newsletter.accountId,
        sendId: send.id,
        memberId: member.id,
        email: member.email.toLowerCase(),
        status,
        attempts: status === "PENDING" || status === "SKIPPED" ? 0 : 1,
        sentAt: status === "SENT" || status === "BOUNCED" ? sentAt : null,
        bouncedAt: status === "BOUNCED" ? sentAt : null,
        lastError: status === "FAILED" ? "550 mailbox unavailable" : null,
        openedAt: outcome.openedAt ?? null,
        clickedAt: clicks[0] ?? null,
        unsubscribedAt: outcome.unsubscribedAt ?? null,
      },
    });
    for (const clickedAt of clicks) {
      await db.newsletterClick.create({
        data: { deliveryId: delivery.id, url: "https://news.example.com/story", clickedAt },
      });
    }
    deliveries.push(delivery);
  }
  return { send, deliveries };
}

/**
 * An account (time zone `timeZone`, default UTC) with a newsletter, `members` readers subscribed
 * to it and a send to them all with `outcomes`.
 */
export async function createNewsletterFixture(
  db: Db,
  options: {
    members?: number;
    trackOpens?: boolean;
    timeZone?: string;
    outcomes?: readonly TestDeliveryOutcome[];
    sentAt?: Date;
  } = {},
) {
  const account = await createTestPublisher(db);
  if (options.timeZone) {
    await db.account.update({ where: { id: account.id }, data: { timeZone: options.timeZone } });
  }
  const newsletter = await insertTestNewsletter(db, account.id, { trackOpens: options.trackOpens });
  const members = await insertSubscribedMembers(db, newsletter, options.members ?? 3);
  const { send, deliveries } = await insertTestSend(db, newsletter, members, {
    outcomes: options.outcomes,
    sentAt: options.sentAt,
  });
  return { account, newsletter, members, send, deliveries };
}
