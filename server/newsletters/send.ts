/**
 * Newsletter sends: asking for one, stopping one, listing them, and test sends to staff.
 *
 * A send is created at most once per newsletter and `dedupeKey` ("story:<story id>",
 * "digest:<local date>"): the insert does nothing when the key exists (ON CONFLICT DO NOTHING on the
 * unique index), and the caller gets the existing send. Its job ("newsletter.send", ./send-job.ts)
 * is enqueued in the same transaction, only by the request that created it.
 */
import "server-only";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { cancelJob, enqueueJob } from "../jobs/queue";
import { queueEmail } from "../mail/outbox";
import { getPublisher } from "../publishing/publisher";
import { audienceCount } from "./audience";
import { fromHeader, newsletterHeaders, personalise, subjectLine } from "./render-mail";
import { storyTemplates } from "./send-content";
import { newsletterSendJob } from "./send-job";
import { TEST_RECIPIENTS_MAX, type TListSendsInput, type TSendPage, type TSendView } from "./send.schema";

const sendJobKey = (sendId: number) => `newsletter.send:${sendId}`;
export const storyDedupeKey = (storyId: string) => `story:${storyId.toLowerCase()}`;

type SendRow = { id: number; status: string };

/** The account's newsletter, not archived; NOT_FOUND otherwise. */
async function liveNewsletter(db: Db, accountId: number, newsletterId: number) {
  const newsletter = await db.newsletter.findFirst({ where: { id: newsletterId, accountId, archivedAt: null } });
  if (!newsletter) throw new AppError("NOT_FOUND", "Newsletter not found.");
  return newsletter;
}

/**
 * Create a send, or find the one with the same key. Its job is enqueued with it (in `db`'s
 * transaction when it is one).
 */
export async function createSend(
  db: Db,
  args: {
    accountId: number;
    newsletterId: number;
    kind: "story" | "digest";
    dedupeKey: string;
    subject: string;
    storyId?: string | null;
    collectionId?: number | null;
    createdBy?: string | null;
    scheduledAt: Date;
    now: Date;
  },
): Promise<{ send: SendRow; created: boolean }> {
  return withTransaction(db, async (tx) => {
    const { count } = await tx.newsletterSend.createMany({
      data: [
        {
          accountId: args.accountId,
          newsletterId: args.newsletterId,
          kind: args.kind,
          dedupeKey: args.dedupeKey,
          subject: subjectLine(args.subject),
          storyId: args.storyId ?? null,
          collectionId: args.collectionId ?? null,
          createdBy: args.createdBy ?? null,
          scheduledAt: args.scheduledAt,
          createdAt: args.now,
        },
      ],
      skipDuplicates: true,
    });
    const send = await tx.newsletterSend.findUniqueOrThrow({
      where: { newsletterId_dedupeKey: { newsletterId: args.newsletterId, dedupeKey: args.dedupeKey } },
      select: { id: true, status: true },
    });
    if (count === 1)
      await enqueueJob(
        tx,
        newsletterSendJob,
        { sendId: send.id },
        { key: sendJobKey(send.id), runAt: args.scheduledAt, accountId: args.accountId, now: args.now },
      );
    return { send, created: count === 1 };
  });
}

/** Why a story cannot go to readers while the site URL is unset (the dashboard shows it as is). */
const SITE_URL_UNSET =
  "The site's public URL is not set, so the mail's story link would lead to Masthead's own address, which has no story pages. Set it in Settings → Site (/admin/settings), then send.";

/** Why a digest is not sent while the site URL is unset (recorded in the audit log, newsletter.digest_skipped). */
export const DIGEST_SITE_URL_UNSET =
  "The digest was not sent: the site's public URL is not set, so the mail's story links would lead to Masthead's own address, which has no story pages. Set it in Settings → Site (/admin/settings); the next digest day sends it.";

/**
 * Refuses (BAD_REQUEST, field siteUrl) while the account's site URL is unset or Masthead's own
 * address: a story mail links readers to the story on the site (storyUrl), which would answer 404.
 */
export async function requireSiteUrl(db: Db, accountId: number, appUrl: string): Promise<void> {
  const publisher = await getPublisher(db, accountId, { appUrl });
  if (!publisher.siteUrlSet)
    throw new AppError("BAD_REQUEST", SITE_URL_UNSET, { details: [{ field: "siteUrl", issue: "is not set" }] });
}

/**
 * Send a published story to newsletters (each once: a second request answers the first send).
 * In the caller's transaction when `db` is one (Publish and send: in the publish's).
 */
export async function sendStory(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    newsletterIds: number[];
    subject?: string;
    createdBy: string | null;
    appUrl: string;
    now: Date;
  },
): Promise<{ sends: (SendRow & { newsletterId: number; created: boolean })[] }> {
  await requireSiteUrl(db, args.accountId, args.appUrl);
  return withTransaction(db, async (tx) => {
    const story = await tx.story.findFirst({
      where: { id: args.storyId, accountId: args.accountId },
      select: { headline: true, status: true },
    });
    if (!story) throw new AppError("NOT_FOUND", "Story not found.");
    if (story.status !== "PUBLISHED")
      throw new AppError("BAD_REQUEST", "Only a published story can be sent.", {
        details: [{ field: "storyId", issue: "is not published" }],
      });
    const sends = [];
    for (const newsletterId of args.newsletterIds) {
      await liveNewsletter(tx, args.accountId, newsletterId);
      const { send, created } = await createSend(tx, {
        accountId: args.accountId,
        newsletterId,
        kind: "story",
        dedupeKey: storyDedupeKey(args.storyId),
        subject: args.subject ?? story.headline,
        storyId: args.storyId,
        createdBy: args.createdBy,
        scheduledAt: args.now,
        now: args.now,
      });
      sends.push({ ...send, newsletterId, created });
    }
    return { sends };
  });
}

/** Stop a send that is queued or sending: CANCELLED, its deliveries not yet handed off SKIPPED. */
export async function cancelSend(
  db: Db,
  args: { accountId: number; sendId: number; now: Date },
): Promise<{ status: TSendView["status"] }> {
  return withTransaction(db, async (tx) => {
    const send = await tx.newsletterSend.findFirst({
      where: { id: args.sendId, accountId: args.accountId },
      select: { status: true },
    });
    if (!send) throw new AppError("NOT_FOUND", "Send not found.");
    if (send.status === "SENT" || send.status === "CANCELLED") return { status: send.status };
    await tx.newsletterSend.update({ where: { id: args.sendId }, data: { status: "CANCELLED", finishedAt: args.now } });
    await tx.$executeRaw`UPDATE newsletter_deliveries SET status = 'skipped', claimed_until = NULL, last_error = 'cancelled'
      WHERE send_id = ${args.sendId} AND status = 'pending' AND sent_at IS NULL`;
    await cancelJob(tx, { key: sendJobKey(args.sendId), now: args.now });
    return { status: "CANCELLED" as const };
  });
}

/** Sends, newest first (keyset on id), with their deliveries counted by status. */
export async function listSends(db: Db, args: { accountId: number } & TListSendsInput): Promise<TSendPage> {
  const limit = args.limit ?? 25;
  const rows = await db.newsletterSend.findMany({
    where: {
      accountId: args.accountId,
      ...(args.newsletterId ? { newsletterId: args.newsletterId } : {}),
      ...(args.storyId ? { storyId: args.storyId } : {}),
      ...(args.cursor ? { id: { lt: args.cursor } } : {}),
    },
    orderBy: { id: "desc" },
    take: limit + 1,
    include: { newsletter: { select: { name: true } } },
  });
  const items = rows.slice(0, limit);
  const counts = items.length
    ? await db.newsletterDelivery.groupBy({
        by: ["sendId", "status"],
        where: { sendId: { in: items.map((s) => s.id) } },
        _count: { _all: true },
      })
    : [];
  const count = (sendId: number, status: string) =>
    counts.find((c) => c.sendId === sendId && c.status === status)?._count._all ?? 0;
  const account = await db.account.findUnique({ where: { id: args.accountId }, select: { timeZone: true } });
  return {
    items: items.map((s) => ({
      id: s.id,
      newsletterId: s.newsletterId,
      newsletterName: s.newsletter.name,
      kind: s.kind,
      storyId: s.storyId,
      subject: s.subject,
      status: s.status,
      recipients: s.recipients,
      sent: count(s.id, "SENT"),
      failed: count(s.id, "FAILED") + count(s.id, "BOUNCED"),
      skipped: count(s.id, "SKIPPED"),
      pending: count(s.id, "PENDING"),
      scheduledAt: s.scheduledAt,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      createdAt: s.createdAt,
    })),
    nextCursor: rows.length > limit ? items.at(-1)!.id : null,
    timeZone: account?.timeZone ?? "UTC",
  };
}

/** The account's newsletters an editor may send to, with how many would receive each now. */
export async function newsletterChoices(db: Db, args: { accountId: number; now: Date }) {
  const newsletters = await db.newsletter.findMany({
    where: { accountId: args.accountId, archivedAt: null },
    orderBy: { name: "asc" },
  });
  return Promise.all(
    newsletters.map(async (n) => ({
      id: n.id,
      name: n.name,
      audience: n.audience,
      recipients: await audienceCount(db, { newsletter: n, now: args.now }),
    })),
  );
}

/**
 * A test send: the story as the newsletter would mail it (whole: staff read everything), to up to
 * five addresses of the account's staff (dashboard users not disabled; anyone else is BAD_REQUEST,
 * so a test cannot mail strangers) now, through the outbox (the Outbox page shows them). Subject marked
 * "[Test]"; no send, no delivery, nothing counted. Its links are the story's own (nothing to
 * count), and its unsubscribe link leads to the dashboard's newsletters page.
 */
export async function testSend(
  db: Db,
  args: {
    accountId: number;
    storyId: string;
    newsletterId: number;
    subject?: string;
    to: string[];
    appUrl: string;
    now: Date;
  },
): Promise<{ queued: number }> {
  const to = [...new Set(args.to.map((a) => a.trim().toLowerCase()))];
  if (to.length === 0 || to.length > TEST_RECIPIENTS_MAX)
    throw new AppError("BAD_REQUEST", `Give 1 to ${TEST_RECIPIENTS_MAX} addresses.`, {
      details: [{ field: "to", issue: "has too many or no addresses" }],
    });
  const staff = await db.adminUser.findMany({
    where: { accountId: args.accountId, disabledAt: null, email: { in: to, mode: "insensitive" } },
    select: { email: true },
  });
  const known = new Set(staff.map((s) => s.email.toLowerCase()));
  const strangers = to.filter((a) => !known.has(a));
  if (strangers.length)
    throw new AppError("BAD_REQUEST", "A test goes to the account's staff only.", {
      details: [{ field: "to", issue: `not a staff address: ${strangers.join(", ")}` }],
    });
  const newsletter = await liveNewsletter(db, args.accountId, args.newsletterId);
  const t = await storyTemplates(db, { newsletter, storyId: args.storyId, appUrl: args.appUrl });
  const unsubscribe = `${args.appUrl.replace(/\/+$/, "")}/admin/newsletters`;
  const body = personalise(t.full, { link: (url) => url, unsubscribeUrl: unsubscribe, openPixelUrl: null });
  const subject = `[Test] ${subjectLine(args.subject ?? t.headline)}`;
  await withTransaction(db, async (tx) => {
    for (const address of to)
      await queueEmail(tx, {
        accountId: args.accountId,
        to: address,
        subject,
        text: body.text,
        html: body.html,
        headers: newsletterHeaders({ unsubscribeUrl: unsubscribe, replyTo: newsletter.replyTo }),
        from: fromHeader(newsletter.senderName, newsletter.senderEmail),
        kind: "newsletter.test",
        now: args.now,
      });
  });
  return { queued: to.length };
}

/**
 * The story mail as readers get it (the full variant, links untracked), for the editor to look at
 * before sending: subject and HTML. Nothing is queued.
 */
export async function previewSend(
  db: Db,
  args: { accountId: number; storyId: string; newsletterId: number; subject?: string; appUrl: string },
): Promise<{ subject: string; html: string; siteUrlSet: boolean }> {
  const newsletter = await liveNewsletter(db, args.accountId, args.newsletterId);
  const t = await storyTemplates(db, { newsletter, storyId: args.storyId, appUrl: args.appUrl });
  const publisher = await getPublisher(db, args.accountId, { appUrl: args.appUrl });
  const unsubscribe = `${args.appUrl.replace(/\/+$/, "")}/admin/newsletters`;
  const body = personalise(t.full, { link: (url) => url, unsubscribeUrl: unsubscribe, openPixelUrl: null });
  return { subject: subjectLine(args.subject ?? t.headline), html: body.html, siteUrlSet: publisher.siteUrlSet };
}
