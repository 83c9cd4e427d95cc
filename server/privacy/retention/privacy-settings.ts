/**
 * An account's privacy settings (Settings → Privacy; docs/privacy.md "Consent and retention"):
 * retention periods and the rule for an erased reader's comments. One row per account; no row:
 * the defaults (privacy-settings.schema.ts). Owners change them; every save is audited.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import { hasAnyRole } from "../../auth/roles";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { parseInput } from "../../validation";
import { addCounts, settingsFrom, zeroCounts } from "./periods";
import {
  DEFAULT_PRIVACY_SETTINGS,
  ZPrivacySettingsInput,
  ZRetentionCounts,
  type TPrivacySettings,
  type TPrivacySettingsView,
} from "./privacy-settings.schema";

/**
 * The account's privacy settings, the defaults where it saved none. The erasure reads
 * `erasedReaderComments` here; the retention job reads the periods.
 */
export async function privacySettingsOf(db: Db, accountId: number): Promise<TPrivacySettings> {
  return settingsFrom(await db.privacySettings.findUnique({ where: { accountId } }));
}

function assertOwner(actor: StaffActor): void {
  if (!hasAnyRole(actor.roles, ["OWNER"]))
    throw new AppError("FORBIDDEN", "Only an owner can change the publication's privacy settings.");
}

/** The settings page: the settings, the defaults, and the retention job's last run here. */
export async function getPrivacySettingsView(db: Db, args: { actor: StaffActor }): Promise<TPrivacySettingsView> {
  assertOwner(args.actor);
  const accountId = args.actor.accountId;
  const [row, run] = await Promise.all([
    db.privacySettings.findUnique({ where: { accountId } }),
    db.retentionRun.findUnique({ where: { accountId } }),
  ]);
  const removed = ZRetentionCounts.partial().safeParse(run?.removed);
  return {
    settings: settingsFrom(row),
    saved: row !== null,
    defaults: { ...DEFAULT_PRIVACY_SETTINGS },
    lastRun: run
      ? {
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
          complete: run.complete,
          removed: addCounts(zeroCounts(), removed.success ? removed.data : {}),
        }
      : null,
  };
}

/** Save the settings (owners). Audited with what changed; saving the same values writes nothing. */
export async function updatePrivacySettings(
  db: Db,
  args: { actor: StaffActor; input: unknown; now: Date },
): Promise<TPrivacySettingsView> {
  assertOwner(args.actor);
  const input = parseInput(ZPrivacySettingsInput, args.input);
  const accountId = args.actor.accountId;
  await withTransaction(
    db,
    async (tx) => {
      const before = settingsFrom(await tx.privacySettings.findUnique({ where: { accountId } }));
      const changed = (Object.keys(input) as (keyof TPrivacySettings)[]).filter((k) => before[k] !== input[k]);
      await tx.privacySettings.upsert({ where: { accountId }, create: { accountId, ...input }, update: input });
      if (changed.length === 0) return;
      await recordAudit(tx, {
        actor: args.actor,
        action: "privacy_settings.update",
        targetType: "account",
        targetId: accountId,
        metadata: {
          changed,
          before: Object.fromEntries(changed.map((k) => [k, before[k]])),
          after: Object.fromEntries(changed.map((k) => [k, input[k]])),
        },
        now: args.now,
      });
    },
    { retryUniqueClashes: true },
  );
  return getPrivacySettingsView(db, { actor: args.actor });
}
