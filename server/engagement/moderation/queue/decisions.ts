/**
 * How a moderator's decision and a comment's flags move together (docs/engagement.md "Actions").
 * Pure: the services (queue.ts, comments.ts's edit) read the comment, ask here, and write.
 */
import { ownValue } from "@/server/own-keys";

import type { CommentModerationState } from "../../../generated/prisma/enums";
import type { TCommentAction } from "./queue.schema";

export type CommentFlags = {
  moderationState: CommentModerationState;
  isPublished: boolean;
  isSpam: boolean;
  deleted: boolean;
};

type ActionOutcome =
  | { kind: "noop" }
  | { kind: "conflict"; message: string }
  | {
      kind: "change";
      data: { moderationState?: CommentModerationState; isPublished?: boolean; isSpam?: boolean; delete?: true };
    };

const STATE_OF: Partial<Record<TCommentAction, CommentModerationState>> = {
  approve: "APPROVED",
  reject: "REJECTED",
  spam: "SPAM",
};

const DECIDED_AS: Record<CommentModerationState, string> = {
  UNDECIDED: "undecided",
  APPROVED: "approved",
  REJECTED: "rejected",
  SPAM: "marked spam",
};

/**
 * What `action` does to a comment with these flags:
 * - delete: deleted (a deleted comment: nothing to do); allowed whatever was decided before.
 * - approve: published, not spam, APPROVED; reject: unpublished, REJECTED; spam: unpublished,
 *   spam, SPAM. Already so: nothing to do. Decided otherwise (and no `override`): a conflict.
 * - not_spam: not spam; a comment a moderator marked spam goes back to UNDECIDED (the pending
 *   queue, if unpublished); its publication is otherwise unchanged (approve publishes).
 * - Any action but delete on a deleted comment is a conflict: deleting is final.
 */
export function decideAction(flags: CommentFlags, action: TCommentAction, override: boolean): ActionOutcome {
  if (flags.deleted) {
    return action === "delete"
      ? { kind: "noop" }
      : { kind: "conflict", message: "This comment was deleted: it can no longer be moderated." };
  }
  if (action === "delete") return { kind: "change", data: { delete: true } };
  const conflict = (): ActionOutcome => ({
    kind: "conflict",
    message: `Already decided: this comment was ${DECIDED_AS[flags.moderationState]}. Reload to see it, or change the decision on purpose.`,
  });
  if (action === "not_spam") {
    if (!flags.isSpam && flags.moderationState !== "SPAM") return { kind: "noop" };
    if (flags.moderationState === "SPAM" && !override) return conflict();
    return {
      kind: "change",
      data: { isSpam: false, ...(flags.moderationState === "SPAM" ? { moderationState: "UNDECIDED" as const } : {}) },
    };
  }
  const target = STATE_OF[action]!;
  const already =
    flags.moderationState === target &&
    (action === "approve"
      ? flags.isPublished && !flags.isSpam
      : action === "reject"
        ? !flags.isPublished
        : !flags.isPublished && flags.isSpam);
  if (already) return { kind: "noop" };
  if (flags.moderationState !== "UNDECIDED" && flags.moderationState !== target && !override) return conflict();
  if (action === "approve")
    return { kind: "change", data: { moderationState: target, isPublished: true, isSpam: false } };
  if (action === "reject") return { kind: "change", data: { moderationState: target, isPublished: false } };
  return { kind: "change", data: { moderationState: target, isPublished: false, isSpam: true } };
}

/**
 * A moderator's decision through the author's edit. The edit is moderated as a new comment
 * (`moderated`); then:
 * - REJECTED and SPAM stay so: the edit never publishes the comment (is_spam kept for SPAM);
 * - APPROVED stays approved while the edit passes moderation; an edit that must wait unpublishes
 *   it and sends it back to the queue (UNDECIDED): the moderator approved other words;
 * - UNDECIDED: as moderation says.
 */
export function afterEdit(
  state: CommentModerationState,
  moderated: { isPublished: boolean; isSpam: boolean },
): { isPublished: boolean; isSpam: boolean; moderationState: CommentModerationState } {
  if (state === "REJECTED") return { isPublished: false, isSpam: moderated.isSpam, moderationState: state };
  if (state === "SPAM") return { isPublished: false, isSpam: true, moderationState: state };
  if (state === "APPROVED" && !moderated.isPublished) return { ...moderated, moderationState: "UNDECIDED" };
  return { ...moderated, moderationState: state };
}

/**
 * A comment's moderation state as one opaque string (the queue item's `version`): what a
 * moderator's view of it depends on. Any decision, undo, edit or deletion changes it, so an action
 * sent with the version the moderator saw is refused when the comment moved since. Reports do not
 * change it: a new report does not make a decision stale.
 */
export function commentVersion(c: {
  moderationState: CommentModerationState;
  isPublished: boolean;
  isSpam: boolean;
  deletedAt: Date | null;
  decidedAt: Date | null;
  editedAt: Date | null;
}): string {
  return [
    c.moderationState.toLowerCase(),
    c.isPublished ? "p" : "u",
    c.isSpam ? "s" : "h",
    c.deletedAt ? `d${c.deletedAt.getTime()}` : "-",
    c.decidedAt ? c.decidedAt.getTime() : "-",
    c.editedAt ? c.editedAt.getTime() : "-",
  ].join(".");
}

const STATE_OF_WIRE: Record<string, CommentModerationState> = {
  undecided: "UNDECIDED",
  approved: "APPROVED",
  rejected: "REJECTED",
  spam: "SPAM",
};

/** What a decision's audit entry says the comment was before it (null: not a decision undo can restore). */
export function stateBefore(metadata: unknown): {
  moderationState: CommentModerationState;
  isPublished: boolean;
  isSpam: boolean;
  decidedById: string | null;
  decidedAt: Date | null;
  openReports: number;
} | null {
  if (!metadata || typeof metadata !== "object") return null;
  const m = metadata as Record<string, unknown>;
  const published = m.published as { from?: unknown } | undefined;
  const spam = m.spam as { from?: unknown } | undefined;
  const decided = m.decidedBefore as { byId?: unknown; at?: unknown } | undefined;
  const state = typeof m.from === "string" ? ownValue(STATE_OF_WIRE, m.from) : undefined;
  if (!state || typeof published?.from !== "boolean" || typeof spam?.from !== "boolean" || !decided) return null;
  const at = typeof decided.at === "string" ? new Date(decided.at) : null;
  return {
    moderationState: state,
    isPublished: published.from,
    isSpam: spam.from,
    decidedById: typeof decided.byId === "string" ? decided.byId : null,
    decidedAt: at && !Number.isNaN(at.getTime()) ? at : null,
    openReports: typeof m.openReports === "number" ? m.openReports : 0,
  };
}
