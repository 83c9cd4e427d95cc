/**
 * How an account's comments are scored (docs/engagement.md "Scoring: adaptive layer, shadow mode,
 * external scorer"): the live layers over the base scorer (the adaptive layer, the external
 * scorer) and a shadow configuration being tried (those two and a toxicity threshold of its own).
 * One row per account (`comment_scoring_settings`; none: everything off, no shadow). The live
 * threshold is the moderation settings' (../settings.ts).
 *
 * - Moderators and owners read it, turn the live layers on or off, and set a shadow configuration.
 * - Owners promote the shadow (it becomes live: the layers here, the threshold in the moderation
 *   settings, one transaction) or discard it.
 * Every change is audited (`comment_scoring.update`, `comment_scoring.shadow_set`,
 * `comment_scoring.promote`, `comment_scoring.shadow_discard`, with what was and what is); a
 * change that changes nothing writes nothing. Every comment create reads the row from memory,
 * dropped when it changes (topic "moderation", announced by the table's trigger: decision 0004).
 */
import "server-only";

import { recordAudit } from "../../../audit/audit-log";
import type { StaffActor } from "../../../auth/actor";
import { ProcessCache } from "../../../cache/process-cache";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { CommentScoringSettings, Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import { requireModerator } from "../moderator";
import { moderationSettingsOf } from "../settings";
import { MODERATION_DEFAULTS } from "../settings.schema";
import { externalScorerHost } from "./http-scorer";
import {
  ZSetShadowInput,
  ZUpdateLiveScoringInput,
  type TScoringConfig,
  type TScoringSettingsView,
  type TSetShadowInput,
  type TUpdateLiveScoringInput,
  type TUpdateScoringResult,
} from "./scoring-settings.schema";

/** The row as comments are scored with it (the live threshold is the moderation settings'). */
export type ScoringState = {
  adaptive: boolean;
  externalScorer: boolean;
  shadow: (TScoringConfig & { since: Date }) | null;
  updatedAt: Date | null;
};

const SCORING_DEFAULTS: ScoringState = { adaptive: false, externalScorer: false, shadow: null, updatedAt: null };

function stateOf(row: CommentScoringSettings | null): ScoringState {
  if (!row) return SCORING_DEFAULTS;
  const shadow =
    row.shadowAdaptive !== null && row.shadowExternal !== null && row.shadowThreshold !== null && row.shadowSince
      ? {
          adaptive: row.shadowAdaptive,
          externalScorer: row.shadowExternal,
          toxicityThreshold: row.shadowThreshold,
          since: row.shadowSince,
        }
      : null;
  return { adaptive: row.adaptive, externalScorer: row.externalScorer, shadow, updatedAt: row.updatedAt };
}

async function readScoring(db: Db, accountId: number): Promise<ScoringState> {
  return stateOf(await db.commentScoringSettings.findUnique({ where: { accountId } }));
}

/** Kept in each process, dropped in every one when the row changes (topic "moderation"). */
const kept = new ProcessCache<number, ScoringState>("moderation", { ttlMs: 10 * 60_000, maxEntries: 10_000 });

/** The scoring settings comments are scored with (no role check: the comment services use it). */
export function scoringSettingsOf(db: Db, accountId: number): Promise<ScoringState> {
  return kept.load(accountId, () => readScoring(db, accountId));
}

async function viewOf(db: Db, accountId: number, state: ScoringState): Promise<TScoringSettingsView> {
  const { toxicityThreshold } = await moderationSettingsOf(db, accountId);
  return {
    live: { adaptive: state.adaptive, externalScorer: state.externalScorer, toxicityThreshold },
    shadow: state.shadow,
    externalScorerHost: externalScorerHost(),
    updatedAt: state.updatedAt,
  };
}

/** The actor's account's scoring settings (owners and moderators). */
export async function getScoringSettings(db: Db, args: { actor: StaffActor }): Promise<TScoringSettingsView> {
  requireModerator(args.actor);
  return viewOf(db, args.actor.accountId, await readScoring(db, args.actor.accountId));
}

function requireOwner(actor: StaffActor): void {
  if (!actor.roles.includes("OWNER")) {
    throw new AppError("FORBIDDEN", "Only owners can promote or discard a shadow configuration.");
  }
}

function assertExternalAvailable(wanted: boolean | undefined): void {
  if (wanted && !externalScorerHost()) {
    throw new AppError("UNPROCESSABLE", "No external scorer is configured (MODERATION_SCORER_URL).", {
      details: [{ field: "externalScorer", issue: "no external scorer is configured on this server" }],
    });
  }
}

/** The account's row locked for the transaction (two owners at once: one after the other). */
async function lockScoring(tx: Db, accountId: number): Promise<ScoringState> {
  await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
  return readScoring(tx, accountId);
}

type RowData = {
  adaptive: boolean;
  externalScorer: boolean;
  shadowAdaptive: boolean | null;
  shadowExternal: boolean | null;
  shadowThreshold: number | null;
  shadowSince: Date | null;
  updatedAt: Date;
};

function rowOf(state: ScoringState, now: Date): RowData {
  return {
    adaptive: state.adaptive,
    externalScorer: state.externalScorer,
    shadowAdaptive: state.shadow?.adaptive ?? null,
    shadowExternal: state.shadow?.externalScorer ?? null,
    shadowThreshold: state.shadow?.toxicityThreshold ?? null,
    shadowSince: state.shadow?.since ?? null,
    updatedAt: now,
  };
}

async function writeScoring(tx: Db, accountId: number, state: ScoringState, now: Date): Promise<ScoringState> {
  const data = rowOf(state, now);
  return stateOf(
    await tx.commentScoringSettings.upsert({ where: { accountId }, create: { accountId, ...data }, update: data }),
  );
}

const configOf = (c: TScoringConfig) => ({
  adaptive: c.adaptive,
  externalScorer: c.externalScorer,
  toxicityThreshold: c.toxicityThreshold,
});

/** What a change does: the state to write, what changed, and its audit entry. */
type ScoringChange = { next: ScoringState; changed: string[]; action: string; metadata: Prisma.InputJsonObject };

type ChangeArgs = { actor: StaffActor; now: Date; ip?: string | null };

/**
 * Every change of the scoring settings: the account's row locked, `decide` says what changes
 * (null: nothing, nothing written or audited; it may throw, or write beside it in `tx`), then the
 * row written and the change audited in the same transaction; answered with the view.
 */
async function changeScoring(
  db: Db,
  { actor, now, ip }: ChangeArgs,
  decide: (tx: Db, before: ScoringState) => Promise<ScoringChange | null> | ScoringChange | null,
): Promise<TUpdateScoringResult> {
  const result = await withTransaction(db, async (tx) => {
    const before = await lockScoring(tx, actor.accountId);
    const change = await decide(tx, before);
    if (!change) return { changed: [] as string[], state: before };
    const state = await writeScoring(tx, actor.accountId, change.next, now);
    await recordAudit(tx, {
      actor,
      action: change.action,
      targetType: "comment_scoring_settings",
      targetId: actor.accountId,
      metadata: change.metadata,
      ip,
      now,
    });
    return { changed: change.changed, state };
  });
  return { changed: result.changed, settings: await viewOf(db, actor.accountId, result.state) };
}

/** Turn the live adaptive layer or external scorer on or off (owners and moderators). */
export async function updateLiveScoring(
  db: Db,
  args: ChangeArgs & { input: TUpdateLiveScoringInput },
): Promise<TUpdateScoringResult> {
  requireModerator(args.actor);
  const input = parseInput(ZUpdateLiveScoringInput, args.input);
  assertExternalAvailable(input.externalScorer);
  return changeScoring(db, args, (_tx, before) => {
    const next = { ...before, ...input };
    const changed = (["adaptive", "externalScorer"] as const).filter((key) => before[key] !== next[key]);
    if (changed.length === 0) return null;
    const metadata = {
      changed,
      ...Object.fromEntries(changed.map((key) => [key, { from: before[key], to: next[key] }])),
    };
    return { next, changed, action: "comment_scoring.update", metadata };
  });
}

/**
 * Try a configuration in shadow (owners and moderators): from now on every new comment is also
 * decided by it, without effect, and what it would have done is recorded (shadow.ts). Setting
 * another configuration starts its figures afresh; setting the one being tried changes nothing.
 */
export async function setShadowScoring(
  db: Db,
  args: ChangeArgs & { input: TSetShadowInput },
): Promise<TUpdateScoringResult> {
  requireModerator(args.actor);
  const input = parseInput(ZSetShadowInput, args.input);
  assertExternalAvailable(input.externalScorer);
  return changeScoring(db, args, (_tx, before) => {
    const same = before.shadow !== null && JSON.stringify(configOf(before.shadow)) === JSON.stringify(configOf(input));
    if (same) return null;
    return {
      next: { ...before, shadow: { ...input, since: args.now } },
      changed: ["shadow"],
      action: "comment_scoring.shadow_set",
      metadata: { from: before.shadow ? configOf(before.shadow) : null, to: configOf(input) },
    };
  });
}

function noShadow(): AppError {
  return new AppError("CONFLICT", "There is no shadow configuration: set one first (it may have been discarded).", {
    details: [{ field: "shadow", issue: "none is set" }],
  });
}

/**
 * The shadow configuration becomes live (owners): the adaptive layer and external scorer here,
 * the toxicity threshold in the moderation settings, in one transaction, audited once
 * (`comment_scoring.promote`, the live configuration before and after). 409 without a shadow.
 */
export async function promoteShadowScoring(db: Db, args: ChangeArgs): Promise<TUpdateScoringResult> {
  const { actor, now } = args;
  requireModerator(actor);
  requireOwner(actor);
  return changeScoring(db, args, async (tx, before) => {
    const shadow = before.shadow;
    if (!shadow) throw noShadow();
    // An external scorer removed from the configuration since the shadow was set cannot go live.
    assertExternalAvailable(shadow.externalScorer);
    const moderation = await tx.commentModerationSettings.findUnique({
      where: { accountId: actor.accountId },
      select: { toxicityThreshold: true },
    });
    const liveThreshold = moderation?.toxicityThreshold ?? MODERATION_DEFAULTS.toxicityThreshold;
    if (liveThreshold !== shadow.toxicityThreshold) {
      // The moderation settings' own row (../settings.ts; no row: its defaults, with this threshold).
      await tx.commentModerationSettings.upsert({
        where: { accountId: actor.accountId },
        create: { accountId: actor.accountId, toxicityThreshold: shadow.toxicityThreshold, updatedAt: now },
        update: { toxicityThreshold: shadow.toxicityThreshold, updatedAt: now },
      });
    }
    return {
      next: { ...before, adaptive: shadow.adaptive, externalScorer: shadow.externalScorer, shadow: null },
      changed: [
        ...(before.adaptive !== shadow.adaptive ? ["adaptive"] : []),
        ...(before.externalScorer !== shadow.externalScorer ? ["externalScorer"] : []),
        ...(liveThreshold !== shadow.toxicityThreshold ? ["toxicityThreshold"] : []),
        "shadow",
      ],
      action: "comment_scoring.promote",
      metadata: {
        from: { adaptive: before.adaptive, externalScorer: before.externalScorer, toxicityThreshold: liveThreshold },
        to: configOf(shadow),
        shadowSince: shadow.since.toISOString(),
      },
    };
  });
}

/** Stop trying the shadow configuration (owners; audited). Its records stay, out of any later figures. */
export async function discardShadowScoring(db: Db, args: ChangeArgs): Promise<TUpdateScoringResult> {
  requireModerator(args.actor);
  requireOwner(args.actor);
  return changeScoring(db, args, (_tx, before) => {
    if (!before.shadow) throw noShadow();
    return {
      next: { ...before, shadow: null },
      changed: ["shadow"],
      action: "comment_scoring.shadow_discard",
      metadata: { discarded: configOf(before.shadow), shadowSince: before.shadow.since.toISOString() },
    };
  });
}
