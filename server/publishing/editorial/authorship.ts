/**
 * Who may do what to a story beyond the transport's role check (docs/publishing.md, "Contributors
 * and self-approval"):
 *
 * - A CONTRIBUTOR (with neither EDITOR nor OWNER) writes stories: they create drafts, edit and
 *   delete their own drafts and submit them. They cannot approve, reject, publish, schedule,
 *   retract or move back to draft any story, nor edit or delete anyone else's.
 * - The account setting "Editors may not approve or publish a story they wrote" (accounts.
 *   no_self_approval) refuses approving, publishing and scheduling a story one owns (its writer,
 *   stories.owner_id) to everyone, owners included: a four-eyes rule that an owner switches off,
 *   not one they step around. The scheduler (a system actor) publishing a scheduled story is not
 *   refused: whoever scheduled it was checked then.
 *
 * Refusals are FORBIDDEN (403) with a sentence that says why.
 */
import "server-only";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { StoryStatus } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import { ZEditorialRulesInput, type TEditorialRules, type TEditorialRulesInput } from "./authorship.schema";
import type { TStoryAction } from "./stories.schema";

/** What is done to a story: a workflow move, or one of the other writes. */
export type StoryGate = TStoryAction | "edit" | "delete" | "schedule" | "unschedule";

/** Gates the self-approval rule covers: what makes a story public. */
const SELF_APPROVAL_GATES: ReadonlySet<StoryGate> = new Set(["approve", "publish", "schedule"]);

/** True for a staff member whose only story role is CONTRIBUTOR. */
export function isContributorOnly(actor: Actor): boolean {
  if (actor.kind !== "staff") return false;
  return actor.roles.includes("CONTRIBUTOR") && !actor.roles.includes("EDITOR") && !actor.roles.includes("OWNER");
}

/** Why the self-approval rule (Account.noSelfApproval) refuses a move: the editor shows it next to the move. */
export const SELF_APPROVAL_REFUSAL =
  "This account does not let anyone approve, publish or schedule a story they wrote; another editor must.";

/** Why `actor` may not do `gate` to `story`, or null when they may. Pure. */
export function authorshipRefusal(args: {
  actor: Actor;
  gate: StoryGate;
  story: { ownerId: string | null; status: StoryStatus };
  noSelfApproval: boolean;
}): string | null {
  const { actor, gate, story } = args;
  if (actor.kind !== "staff") return null;
  const own = story.ownerId !== null && story.ownerId === actor.id;
  if (isContributorOnly(actor)) {
    if (gate === "submit" || gate === "edit" || gate === "delete") {
      if (!own) return "Contributors can change only stories they wrote.";
      if (gate !== "submit" && story.status !== "DRAFT")
        return "Contributors can change their stories only while they are drafts; this one is with the editors.";
      return null;
    }
    return "Contributors write and submit stories; an editor approves, publishes and schedules them.";
  }
  if (args.noSelfApproval && own && SELF_APPROVAL_GATES.has(gate)) return SELF_APPROVAL_REFUSAL;
  return null;
}

/**
 * Throw FORBIDDEN when `actor` may not do `gate` to the story (read here, in the caller's
 * transaction). Reads the account's setting only when it can matter.
 */
export async function assertAuthorship(
  tx: TransactionClient,
  args: { actor: Actor; gate: StoryGate; story: { ownerId: string | null; status: StoryStatus } },
): Promise<void> {
  const { actor, gate, story } = args;
  if (actor.kind !== "staff") return;
  const mayMatter = SELF_APPROVAL_GATES.has(gate) && story.ownerId === actor.id;
  const noSelfApproval = mayMatter
    ? ((await tx.account.findUnique({ where: { id: actor.accountId }, select: { noSelfApproval: true } }))
        ?.noSelfApproval ?? false)
    : false;
  const reason = authorshipRefusal({ actor, gate, story, noSelfApproval });
  if (reason) throw new AppError("FORBIDDEN", reason, { details: [{ field: "id", issue: reason }] });
}

const RULES_SELECT = { noSelfApproval: true, previewUrl: true } as const;

/** The account's editorial settings. */
export async function getEditorialRules(db: Db, args: { actor: Actor }): Promise<TEditorialRules> {
  const account = await db.account.findUnique({ where: { id: args.actor.accountId }, select: RULES_SELECT });
  if (!account) throw new AppError("NOT_FOUND", "Account not found.");
  return account;
}

/** Change the account's editorial settings (owners; audited as account.editorial-rules with what changed). */
export async function setEditorialRules(
  db: Db,
  args: { actor: Actor; input: TEditorialRulesInput; now: Date },
): Promise<TEditorialRules> {
  const input = parseInput(ZEditorialRulesInput, args.input);
  const { actor, now } = args;
  return withTransaction(db, async (tx) => {
    const before = await tx.account.findUnique({ where: { id: actor.accountId }, select: RULES_SELECT });
    if (!before) throw new AppError("NOT_FOUND", "Account not found.");
    const after = await tx.account.update({ where: { id: actor.accountId }, data: input, select: RULES_SELECT });
    const changed = Object.fromEntries(
      (Object.keys(RULES_SELECT) as (keyof TEditorialRules)[])
        .filter((key) => before[key] !== after[key])
        .map((key) => [key, after[key]]),
    );
    if (Object.keys(changed).length)
      await recordAudit(tx, {
        actor,
        action: "account.editorial-rules",
        targetType: "account",
        targetId: String(actor.accountId),
        metadata: changed,
        now,
      });
    return after;
  });
}
