/**
 * An account's comment moderation settings (docs/engagement.md, "Moderation"): read by every
 * comment create and edit, read and changed by owners and moderators in the dashboard.
 *
 * An account without a row has MODERATION_DEFAULTS. An update changes the fields it names, in one
 * transaction with an audit entry "comment_moderation.update" naming the fields that changed (and,
 * for banned words, how many there were and are: never the words). An update that changes nothing
 * writes nothing. `unscoredLanguages: "external"` needs an external scorer configured (422 otherwise).
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { StaffActor } from "../../auth/actor";
import { ProcessCache } from "../../cache/process-cache";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { CommentModerationSettings } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { requireModerator } from "./moderator";
import { externalScorerHost } from "./scorer/http-scorer";
import {
  MODERATION_DEFAULTS,
  ZBannedWords,
  ZUpdateModerationSettingsInput,
  type TModerationSettings,
  type TModerationSettingsView,
  type TUpdateModerationSettingsInput,
} from "./settings.schema";

const MODE_TO_DB = { post_moderation: "POST_MODERATION", pre_moderation: "PRE_MODERATION" } as const;
const UNSCORED_TO_DB = { pre_moderate: "PRE_MODERATE", external: "EXTERNAL", publish: "PUBLISH" } as const;
const UNSCORED_FROM_DB = { PRE_MODERATE: "pre_moderate", EXTERNAL: "external", PUBLISH: "publish" } as const;
const WORD_LISTS_TO_DB = { flag: "FLAG", hold: "HOLD", off: "OFF" } as const;
const WORD_LISTS_FROM_DB = { FLAG: "flag", HOLD: "hold", OFF: "off" } as const;

function viewOf(row: CommentModerationSettings | null): TModerationSettingsView {
  if (!row) return { ...MODERATION_DEFAULTS, bannedWords: [], updatedAt: null };
  // Stored words were validated when saved; anything unreadable is left out rather than failing every comment.
  const words = ZBannedWords.safeParse(row.bannedWords);
  return {
    mode: row.mode === "PRE_MODERATION" ? "pre_moderation" : "post_moderation",
    toxicityThreshold: row.toxicityThreshold,
    bannedWords: words.success ? words.data : [],
    holdLinksFromNewReaders: row.holdLinksFromNewReaders,
    guestCommentsAllowed: row.guestCommentsAllowed,
    confidentialCommentsAllowed: row.confidentialCommentsAllowed,
    preModerateUntilApproved: row.preModerateUntilApproved,
    trustRejectionRate: row.trustRejectionRate,
    trustWindowDays: row.trustWindowDays,
    trustMinDecisions: row.trustMinDecisions,
    repeatedPostWindowMinutes: row.repeatedPostWindowMinutes,
    holdDisposableEmails: row.holdDisposableEmails,
    editWindowMinutes: row.editWindowMinutes,
    unscoredLanguages: UNSCORED_FROM_DB[row.unscoredLanguages],
    languageWordLists: WORD_LISTS_FROM_DB[row.languageWordLists],
    updatedAt: row.updatedAt,
  };
}

async function readModerationSettings(db: Db, accountId: number): Promise<TModerationSettingsView> {
  return viewOf(await db.commentModerationSettings.findUnique({ where: { accountId } }));
}

/**
 * Every comment create and edit reads the settings: each instance keeps them in memory, dropped in
 * every instance when an update commits (cache topic "moderation"; only updateModerationSettings
 * writes them). While nothing tells this process about changes, they are read every time.
 */
const keptSettings = new ProcessCache<number, TModerationSettingsView>("moderation", {
  ttlMs: 10 * 60_000,
  maxEntries: 10_000,
});

/** The settings comments are moderated with (no role check: the comment services use it). */
export function moderationSettingsOf(db: Db, accountId: number): Promise<TModerationSettingsView> {
  return keptSettings.load(accountId, () => readModerationSettings(db, accountId));
}

/** The actor's account's settings (owners and moderators). */
export async function getModerationSettings(db: Db, args: { actor: StaffActor }): Promise<TModerationSettingsView> {
  requireModerator(args.actor);
  return readModerationSettings(db, args.actor.accountId);
}

/** Change the fields given; answers the fields that changed and the settings after. */
export async function updateModerationSettings(
  db: Db,
  args: { actor: StaffActor; input: TUpdateModerationSettingsInput; now: Date; ip?: string | null },
): Promise<{ changed: string[]; settings: TModerationSettingsView }> {
  const { actor, now } = args;
  requireModerator(actor);
  const input = parseInput(ZUpdateModerationSettingsInput, args.input);
  if (input.unscoredLanguages === "external" && !externalScorerHost()) {
    throw new AppError("UNPROCESSABLE", "No external scorer is configured (MODERATION_SCORER_URL).", {
      details: [{ field: "unscoredLanguages", issue: "no external scorer is configured on this server" }],
    });
  }
  return withTransaction(db, async (tx) => {
    // Two moderators saving at once: the second waits and compares with what the first saved.
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${actor.accountId} FOR UPDATE`;
    const before = await readModerationSettings(tx, actor.accountId);
    const next: TModerationSettings = { ...before, ...input };
    const changed = (Object.keys(input) as (keyof TModerationSettings)[]).filter(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(next[key]),
    );
    if (changed.length === 0) return { changed, settings: before };
    const data = {
      mode: MODE_TO_DB[next.mode],
      toxicityThreshold: next.toxicityThreshold,
      bannedWords: next.bannedWords,
      holdLinksFromNewReaders: next.holdLinksFromNewReaders,
      guestCommentsAllowed: next.guestCommentsAllowed,
      confidentialCommentsAllowed: next.confidentialCommentsAllowed,
      preModerateUntilApproved: next.preModerateUntilApproved,
      trustRejectionRate: next.trustRejectionRate,
      trustWindowDays: next.trustWindowDays,
      trustMinDecisions: next.trustMinDecisions,
      repeatedPostWindowMinutes: next.repeatedPostWindowMinutes,
      holdDisposableEmails: next.holdDisposableEmails,
      editWindowMinutes: next.editWindowMinutes,
      unscoredLanguages: UNSCORED_TO_DB[next.unscoredLanguages],
      languageWordLists: WORD_LISTS_TO_DB[next.languageWordLists],
      updatedAt: now,
    };
    const row = await tx.commentModerationSettings.upsert({
      where: { accountId: actor.accountId },
      create: { accountId: actor.accountId, ...data },
      update: data,
    });
    await recordAudit(tx, {
      actor,
      action: "comment_moderation.update",
      targetType: "comment_moderation_settings",
      targetId: actor.accountId,
      metadata: {
        changed,
        ...(changed.includes("mode") ? { mode: { from: before.mode, to: next.mode } } : {}),
        ...(changed.includes("toxicityThreshold")
          ? { toxicityThreshold: { from: before.toxicityThreshold, to: next.toxicityThreshold } }
          : {}),
        ...(changed.includes("unscoredLanguages")
          ? { unscoredLanguages: { from: before.unscoredLanguages, to: next.unscoredLanguages } }
          : {}),
        ...(changed.includes("languageWordLists")
          ? { languageWordLists: { from: before.languageWordLists, to: next.languageWordLists } }
          : {}),
        ...(changed.includes("bannedWords")
          ? { bannedWords: { from: before.bannedWords.length, to: next.bannedWords.length } }
          : {}),
      },
      ip: args.ip,
      now,
    });
    return { changed, settings: viewOf(row) };
  });
}
