/**
 * The queue-age alert (docs/engagement.md "Shifts and surges"): when a pending comment has waited
 * longer than the account's setting, the staff who asked for it get one e-mail per episode. An
 * episode is a row of moderation_alert_episodes, one open per account (a partial unique index),
 * written with its e-mails in the surge watch's transaction (surges.ts): two instances or a
 * retried job send once. The rule of an episode's start and end is surge-rules.ts alertStep.
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import { systemActor } from "../../../auth/actor";
import type { Db, TransactionClient } from "../../../db/client";
import { queueEmail } from "../../../mail/outbox";
import { alertStep, durationInWords } from "./surge-rules";
import type { TSurgeSettings } from "./surge-settings.schema";

/** Who the surge watch's entries in the audit log name. */
export const WATCHER = "surge watch";

/** The account's pending comments: how many, and the oldest one's creation. */
async function readPendingAge(db: Db, accountId: number): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db.$queryRaw<{ count: number; oldest: Date | null }[]>`
    SELECT count(*)::int AS count, min(created_at) AS oldest FROM comments
    WHERE account_id = ${accountId} AND NOT is_published AND moderation_state = 'undecided' AND deleted_at IS NULL`;
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

/** The staff who asked for the queue-age e-mail and still moderate the account (owners, moderators, enabled). */
async function alertRecipients(db: Db, accountId: number): Promise<{ email: string; name: string }[]> {
  return db.$queryRaw<{ email: string; name: string }[]>`
    SELECT u.email, u.name FROM moderation_alert_subscribers s
    JOIN admin_users u ON u.id = s.admin_user_id
    WHERE s.account_id = ${accountId} AND u.account_id = ${accountId} AND u.disabled_at IS NULL
      AND u.roles && ARRAY['owner', 'moderator']::admin_role[]
    ORDER BY u.email`;
}

/** Moderators' e-mail: how many comments wait, the oldest's age, the link to the queue. */
function alertEmailText(args: {
  accountName: string;
  pending: number;
  oldest: Date;
  now: Date;
  timeZone: string;
  afterMinutes: number;
  queueUrl: string;
}): { subject: string; text: string } {
  const age = durationInWords(args.now.getTime() - args.oldest.getTime());
  const since = new Intl.DateTimeFormat("en-GB", {
    dateStyle: "medium",
    timeStyle: "long",
    timeZone: args.timeZone,
  }).format(args.oldest);
  const comments = args.pending === 1 ? "1 comment is" : `${args.pending} comments are`;
  return {
    subject: `${args.accountName}: comments have waited over ${args.afterMinutes} min for moderation`,
    text: [
      `${comments} waiting for a moderator on ${args.accountName}.`,
      `The oldest has waited ${age} (since ${since}).`,
      "",
      `Open the queue: ${args.queueUrl}`,
      "",
      "You get this once each time the queue waits too long; the next comes only after the queue was cleared below",
      `${args.afterMinutes} minutes. Moderation settings, to stop these e-mails: ${args.queueUrl.replace(/\/moderation\?.*$/, "/settings")}`,
    ].join("\n"),
  };
}

/**
 * The queue-age alert of one account, in the watch's transaction: ends an episode once no pending
 * comment is older than the setting, starts one (and sends its e-mails) when one is. Answers how
 * many e-mails it queued.
 */
export async function watchAlert(
  tx: TransactionClient,
  args: { accountId: number; settings: TSurgeSettings; now: Date; appUrl: string },
): Promise<number> {
  const { accountId, settings, now } = args;
  const open = await tx.moderationAlertEpisode.findFirst({ where: { accountId, endedAt: null } });
  if (settings.alertAfterMinutes === null && !open) return 0;
  const age = await readPendingAge(tx, accountId);
  const step = alertStep({
    open: open !== null,
    oldestPendingAt: age.oldest,
    alertAfterMinutes: settings.alertAfterMinutes,
    now,
  });
  if (step.kind === "end" && open) {
    await tx.moderationAlertEpisode.updateMany({ where: { id: open.id, endedAt: null }, data: { endedAt: now } });
    return 0;
  }
  if (step.kind !== "start" || !age.oldest || settings.alertAfterMinutes === null) return 0;
  // One open episode per account: the watch that inserts it sends the mails, in this transaction.
  const [episode] = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO moderation_alert_episodes (account_id, started_at, pending_count, oldest_at)
    VALUES (${accountId}, ${now}::timestamptz, ${age.count}, ${age.oldest}::timestamptz)
    ON CONFLICT (account_id) WHERE ended_at IS NULL DO NOTHING
    RETURNING id`;
  if (!episode) return 0;
  const [recipients, account] = await Promise.all([
    alertRecipients(tx, accountId),
    tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } }),
  ]);
  const mail = alertEmailText({
    accountName: account.name,
    pending: age.count,
    oldest: age.oldest,
    now,
    timeZone: settings.timeZone,
    afterMinutes: settings.alertAfterMinutes,
    queueUrl: `${args.appUrl.replace(/\/$/, "")}/admin/engagement/moderation?order=oldest`,
  });
  for (const recipient of recipients) {
    await queueEmail(tx, { accountId, to: recipient.email, ...mail, kind: "moderation.queue_alert", now });
  }
  await tx.moderationAlertEpisode.update({ where: { id: episode.id }, data: { recipients: recipients.length } });
  await recordAudit(tx, {
    actor: systemActor(accountId, WATCHER),
    action: "moderation_alert.send",
    targetType: "moderation_alert_episode",
    targetId: episode.id,
    metadata: { pending: age.count, oldestAt: age.oldest.toISOString(), recipients: recipients.length },
    now,
  });
  return recipients.length;
}
