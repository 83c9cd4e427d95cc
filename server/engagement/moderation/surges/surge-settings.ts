/**
 * An account's moderation shifts, surge rules and queue-age alert (docs/engagement.md "Shifts and
 * surges"), read and changed by owners and moderators in the dashboard; each staff member's own
 * choice to receive the queue-age e-mail.
 *
 * An account without a row has SURGE_DEFAULTS (always staffed, surges off, no alert). An update
 * changes the fields it names, in one transaction with an audit entry "moderation_surges.update"
 * naming the fields that changed, and asks the surge watch to look at the account at once (so a
 * schedule saved off shift takes effect now, not at the next minute). An update that changes
 * nothing writes nothing.
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { StaffActor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { enqueueJob } from "../../../jobs/queue";
import { parseInput } from "../../../validation";
import { requireModerator } from "../moderator";
import { surgeSettingsOf } from "./surge-settings-row";
import {
  ZSetAlertSubscriptionInput,
  ZUpdateSurgeSettingsInput,
  type TSurgeSettings,
  type TSurgeSettingsView,
  type TUpdateSurgeSettingsInput,
} from "./surge-settings.schema";
import { surgeWatchJob } from "./surges";

const ACTION_TO_DB = { pre_moderation: "PRE_MODERATION", slow_mode: "SLOW_MODE", off: null } as const;

async function readView(db: Db, actor: StaffActor): Promise<TSurgeSettingsView> {
  const [row, subscription] = await Promise.all([
    db.moderationSurgeSettings.findUnique({ where: { accountId: actor.accountId } }),
    db.moderationAlertSubscriber.findUnique({ where: { adminUserId: actor.id } }),
  ]);
  return {
    ...surgeSettingsOf(row),
    updatedAt: row?.updatedAt ?? null,
    alertSubscribed: subscription !== null && subscription.accountId === actor.accountId,
  };
}

/** The actor's account's shifts, surge rules and alert, and whether the actor gets the alert. */
export async function getSurgeSettings(db: Db, args: { actor: StaffActor }): Promise<TSurgeSettingsView> {
  requireModerator(args.actor);
  return readView(db, args.actor);
}

/** Change the fields given; answers the fields that changed and the settings after. */
export async function updateSurgeSettings(
  db: Db,
  args: { actor: StaffActor; input: TUpdateSurgeSettingsInput; now: Date; ip?: string | null },
): Promise<{ changed: string[]; settings: TSurgeSettingsView }> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZUpdateSurgeSettingsInput, args.input);
  return withTransaction(db, async (tx) => {
    // Two moderators saving at once: the second waits and compares with what the first saved.
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${actor.accountId} FOR UPDATE`;
    const before = surgeSettingsOf(
      await tx.moderationSurgeSettings.findUnique({ where: { accountId: actor.accountId } }),
    );
    const next: TSurgeSettings = { ...before, ...input };
    const changed = (Object.keys(input) as (keyof TSurgeSettings)[]).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]),
    );
    if (changed.length === 0) return { changed, settings: await readView(tx, actor) };
    const data = {
      timeZone: next.timeZone,
      shifts: next.shifts,
      surgeAction: ACTION_TO_DB[next.surgeAction],
      surgeSlowModeSeconds: next.surgeSlowModeSeconds,
      surgePendingMin: next.surgePendingMin,
      surgeArrivalRatio: next.surgeArrivalRatio,
      surgeWindowMinutes: next.surgeWindowMinutes,
      surgeCalmMinutes: next.surgeCalmMinutes,
      alertAfterMinutes: next.alertAfterMinutes,
      updatedAt: now,
    };
    await tx.moderationSurgeSettings.upsert({
      where: { accountId: actor.accountId },
      create: { accountId: actor.accountId, ...data },
      update: data,
    });
    await recordAudit(tx, {
      actor,
      action: "moderation_surges.update",
      targetType: "moderation_surge_settings",
      targetId: actor.accountId,
      metadata: {
        changed,
        ...Object.fromEntries(changed.map((key) => [key, { from: before[key], to: next[key] }])),
      },
      ip: args.ip,
      now,
    });
    // The watch looks at the account now: a schedule saved off shift, or a surge turned off, applies at once.
    await enqueueJob(
      tx,
      surgeWatchJob,
      { accountId: actor.accountId },
      { key: `moderation.surge_watch:${actor.accountId}`, accountId: actor.accountId, now, runAt: now },
    );
    return { changed, settings: await readView(tx, actor) };
  });
}

/** The actor asks for (or stops) the queue-age e-mail of their account; audited when it changes. */
export async function setAlertSubscription(
  db: Db,
  args: { actor: StaffActor; input: { subscribed: boolean }; now: Date; ip?: string | null },
): Promise<TSurgeSettingsView> {
  const { actor, now } = args;
  requireModerator(actor);
  const { subscribed } = parseInput(ZSetAlertSubscriptionInput, args.input);
  return withTransaction(db, async (tx) => {
    const existing = await tx.moderationAlertSubscriber.findUnique({ where: { adminUserId: actor.id } });
    const had = existing !== null && existing.accountId === actor.accountId;
    if (had !== subscribed) {
      if (subscribed) {
        await tx.moderationAlertSubscriber.upsert({
          where: { adminUserId: actor.id },
          create: { adminUserId: actor.id, accountId: actor.accountId, createdAt: now },
          update: { accountId: actor.accountId, createdAt: now },
        });
      } else {
        await tx.moderationAlertSubscriber.deleteMany({ where: { adminUserId: actor.id } });
      }
      await recordAudit(tx, {
        actor,
        action: subscribed ? "moderation_alert.subscribe" : "moderation_alert.unsubscribe",
        targetType: "admin_user",
        targetId: actor.id,
        ip: args.ip,
        now,
      });
    }
    return readView(tx, actor);
  });
}
