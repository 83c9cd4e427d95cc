/**
 * The Community page (docs/engagement.md "Community"): finding any reader of the account, a
 * reader's card, and what a moderator does to a reader (warn, suspend, ban, lift, reject their
 * pending comments). tRPC `community.*`; zod only, so the dashboard's forms import the same rules.
 * The services are readers.ts (reads) and sanctions.ts (writes).
 */
import { z } from "zod";

import { PG_INT_MAX } from "../../params.schema";
import { ZBanView, ZReaderHistory } from "../moderation/queue/queue.schema";

const zId = z.number().int().min(1).max(PG_INT_MAX);

// Control characters other than tab and line feed are refused, as in comment bodies and reports.
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A moderator's message to a reader: plain text, shown to them as text. */
export const MESSAGE_MAX = 1000;
const zMessage = z
  .string()
  .trim()
  .max(MESSAGE_MAX, `must be at most ${MESSAGE_MAX} characters`)
  .refine((s) => !CONTROL.test(s), "must not contain control characters (other than tab and line feed)");

/** The reason kept in the reader's history and the audit log (as bans have always had). */
const zReason = z.string().trim().min(1, "is required").max(500, "must be at most 500 characters");

// ─── finding readers ─────────────────────────────────────────────────────────────────────────

/** A reader's standing: banned for good, suspended until a time, warned (ever), or none of these. */
const READER_STATUSES = ["banned", "suspended", "warned", "active"] as const;
type TReaderStatus = (typeof READER_STATUSES)[number];

/** The list's status filter: every reader, or those of one standing. */
const READER_STATUS_FILTERS = ["all", "banned", "suspended", "warned"] as const;
export type TReaderStatusFilter = (typeof READER_STATUS_FILTERS)[number];

export const READERS_PAGE_SIZE = { default: 20, max: 50 };

export const ZReaderSearchInput = z.object({
  /** Name, username, e-mail, an identity, or a member id (`123`, `#123`); empty: every reader. */
  q: z.string().trim().max(200, "must be at most 200 characters").default(""),
  status: z.enum(READER_STATUS_FILTERS).default("all"),
  /** Only readers with comments waiting in the pending queue. */
  hasPending: z.boolean().default(false),
  /** From the previous page's nextCursor. */
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(READERS_PAGE_SIZE.max).default(READERS_PAGE_SIZE.default),
});
export type TReaderSearchInput = z.input<typeof ZReaderSearchInput>;

const ZCommentCounts = z.object({
  /** Visible: published, not spam, not deleted. */
  published: z.number().int(),
  /** Waiting in the moderation queue's Pending tab: unpublished, undecided, not deleted. */
  pending: z.number().int(),
  /** A moderator rejected them (not deleted). */
  rejected: z.number().int(),
});
export type TCommentCounts = z.output<typeof ZCommentCounts>;

const ZReaderRow = z.object({
  memberId: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  /** The sign-in e-mail, or the communication e-mail of a reader without one (JWT readers); null when neither. */
  email: z.string().nullable(),
  joinedAt: z.date(),
  status: z.enum(READER_STATUSES),
  /** The end of a suspension (null: not suspended; a ban for good has none). */
  suspendedUntil: z.date().nullable(),
  counts: ZCommentCounts,
});
export type TReaderRow = z.output<typeof ZReaderRow>;

/** The standing a reader's active ban and warnings give (a ban outranks a warning). */
export function readerStatus(ban: { expiresAt: Date | null } | null, warned: boolean): TReaderStatus {
  if (ban) return ban.expiresAt === null ? "banned" : "suspended";
  return warned ? "warned" : "active";
}

export const ZReaderPage = z.object({ items: z.array(ZReaderRow), nextCursor: z.string().nullable() });
export type TReaderPage = z.output<typeof ZReaderPage>;

// ─── a reader's card ─────────────────────────────────────────────────────────────────────────

export const ZReaderCardInput = z.object({ memberId: zId });

const NOTICE_KINDS = ["warning", "ban", "suspension"] as const;
export type TNoticeKind = (typeof NOTICE_KINDS)[number];

export const ZNoticeView = z.object({
  id: z.number().int(),
  kind: z.enum(NOTICE_KINDS),
  message: z.string(),
  createdAt: z.date(),
  createdBy: z.string().nullable(),
  /** When the reader saw it and said so in the widget; null: not yet. */
  acknowledgedAt: z.date().nullable(),
});
export type TNoticeView = z.output<typeof ZNoticeView>;

const ZDecisionView = z.object({
  commentId: z.number().int(),
  state: z.enum(["undecided", "approved", "rejected", "spam"]),
  decidedAt: z.date(),
  decidedBy: z.string().nullable(),
});

export const ZReaderCard = z.object({
  reader: ZReaderRow,
  /** The queue's history of the reader: comments with their states and pages, reports, bans. */
  history: ZReaderHistory,
  /** Moderators' decisions on the reader's comments, newest first, with who made them. */
  decisions: z.array(ZDecisionView),
  /** Warnings and the messages of bans and suspensions, newest first. */
  notices: z.array(ZNoticeView),
});
export type TReaderCard = z.output<typeof ZReaderCard>;

// ─── actions ─────────────────────────────────────────────────────────────────────────────────

export const ZWarnInput = z.object({
  memberId: zId,
  message: zMessage.pipe(z.string().min(1, "is required")),
});
export type TWarnInput = z.input<typeof ZWarnInput>;

/** The longest suspension: ten years (beyond it, ban for good). */
const SUSPENSION_MAX_DAYS = 3650;

const sanction = {
  memberId: zId,
  reason: zReason,
  /** Shown to the reader in the comment widget, once; optional. */
  message: zMessage.default(""),
  /** Also reject every comment of theirs waiting in the pending queue, in the same transaction. */
  rejectPending: z.boolean().default(false),
};

export const ZBanForGoodInput = z.object(sanction);
export type TBanForGoodInput = z.input<typeof ZBanForGoodInput>;

export const ZSuspendInput = z.object({
  ...sanction,
  /** When the suspension ends (an instant; stored in UTC). Must be to come, within SUSPENSION_MAX_DAYS. */
  until: z.date({ error: "must be a date and time" }),
});
export type TSuspendInput = z.input<typeof ZSuspendInput>;

export const ZSanctionResult = z.object({
  ban: ZBanView,
  /** How many pending comments were rejected with it (0 unless asked). */
  rejected: z.number().int(),
});
export type TSanctionResult = z.output<typeof ZSanctionResult>;

export const ZLiftInput = z.object({ memberId: zId });

/**
 * Which of a reader's comments "reject all" takes: `pending`, those waiting in the pending queue;
 * `all`, every comment of theirs not deleted and not rejected or marked spam by a moderator
 * (pending, published, and approved ones: the moderator's new decision replaces the approval).
 */
const REJECT_SCOPES = ["pending", "all"] as const;
export type TRejectScope = (typeof REJECT_SCOPES)[number];

export const ZRejectCommentsInput = z.object({ memberId: zId, scope: z.enum(REJECT_SCOPES).default("pending") });
export type TRejectCommentsInput = z.input<typeof ZRejectCommentsInput>;

export const ZRejectCommentsResult = z.object({
  /** Comments rejected now. */
  rejected: z.number().int(),
  counts: ZCommentCounts,
});
export type TRejectCommentsResult = z.output<typeof ZRejectCommentsResult>;

/** Whether `until` is a suspension end a moderator may set at `now`: to come, and within SUSPENSION_MAX_DAYS. */
export function suspensionEndProblem(until: Date, now: Date): string | null {
  if (Number.isNaN(until.getTime())) return "must be a date and time";
  if (until.getTime() <= now.getTime()) return "must be in the future";
  if (until.getTime() - now.getTime() > SUSPENSION_MAX_DAYS * 86_400_000)
    return `must be within ${SUSPENSION_MAX_DAYS} days (ban for good instead)`;
  return null;
}
