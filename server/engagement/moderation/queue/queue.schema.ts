/**
 * The moderators' queue, their actions on comments and readers, and a reader's history, as the
 * dashboard asks for them (tRPC `moderation.*`; docs/engagement.md "The queue", "Actions", "Bans").
 * zod only, so the dashboard's forms import the same rules. The services are queue.ts and ../bans/bans.ts.
 */
import { z } from "zod";

import { PG_INT_MAX } from "../../../params.schema";
import type { TCommentOp } from "../../comments.schema";
import { QUEUE_ORDERS, QUEUE_VIEWS, ZQueueFilters } from "./queue-filters.schema";

export {
  DECIDED_VIEWS,
  QUEUE_TABS,
  QUEUE_VIEWS,
  type TDecidedView,
  type TQueueTab,
  type TQueueView,
} from "./queue-filters.schema";

const QUEUE_PAGE_SIZE = { default: 20, max: 50 };

const zId = z.number().int().min(1).max(PG_INT_MAX);

export const ZQueueInput = z.object({
  /** A queue tab (undecided comments, by creation) or a decided view (by decision). */
  tab: z.enum(QUEUE_VIEWS).default("pending"),
  /** newest: most recent first (created, or decided in a decided view). */
  order: z.enum(QUEUE_ORDERS).default("newest"),
  /** From the previous page's nextCursor (with the same tab, order and filters). */
  cursor: z.string().max(200).optional(),
  limit: z.number().int().min(1).max(QUEUE_PAGE_SIZE.max).default(QUEUE_PAGE_SIZE.default),
  filters: ZQueueFilters.optional(),
});
export type TQueueInput = z.input<typeof ZQueueInput>;

const MODERATION_STATES = ["undecided", "approved", "rejected", "spam"] as const;

export const REPORT_REASONS = ["spam", "abuse", "off_topic", "other"] as const;
type TReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<TReportReason, string> = {
  spam: "Spam",
  abuse: "Abuse",
  off_topic: "Off topic",
  other: "Other",
};

const ZQueueItem = z.object({
  id: z.number().int(),
  /** The ops as stored (validated when written): the dashboard renders them as text and links, never HTML. */
  ops: z.custom<TCommentOp[]>((value) => Array.isArray(value)),
  page: z.object({ id: z.number().int(), url: z.string(), headline: z.string().nullable() }),
  parentCommentId: z.number().int().nullable(),
  author: z.object({
    memberId: z.number().int(),
    name: z.string(),
    isNew: z.boolean(),
    /** The end of the reader's active ban: a date, "forever", or null when not banned. */
    bannedUntil: z.union([z.date(), z.literal("forever"), z.null()]),
  }),
  confidential: z.boolean(),
  toxicity: z.number(),
  isSpam: z.boolean(),
  isPublished: z.boolean(),
  hidden: z.boolean(),
  deleted: z.boolean(),
  state: z.enum(MODERATION_STATES),
  reasons: z.array(z.string()),
  /** Each reason in plain words, in the order of `reasons` (reasons.ts). */
  explainedReasons: z.array(z.object({ code: z.string(), text: z.string() })),
  /**
   * Words of the text that triggered moderation, as offsets (UTF-16) into the comment's text (its
   * text inserts joined in order): the account's banned words, words of the scorer's lists, spam
   * phrases and links (reasons.ts).
   */
  highlights: z.array(
    z.object({
      start: z.number().int(),
      end: z.number().int(),
      kind: z.enum(["banned", "toxic", "spam", "link"]),
      label: z.string(),
    }),
  ),
  /** Who made the current decision (null: undecided, or the staff member is gone). */
  decidedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  /**
   * The comment's moderation state as loaded, opaque: an action given it back as
   * `expectedVersion` is refused (409) when the comment changed since.
   */
  version: z.string(),
  /** Every report of the comment, and those since the last decision. */
  reportCount: z.number().int(),
  openReports: z.number().int(),
  reportReasons: z.array(z.object({ reason: z.enum(REPORT_REASONS), count: z.number().int() })),
  reportNotes: z.array(z.string()),
  createdAt: z.date(),
  editedAt: z.date().nullable(),
  decidedAt: z.date().nullable(),
  /** Featured (pinned) by a moderator (comment-features.ts). */
  featured: z.boolean(),
  /** A question marked answered by a moderator (comment-features.ts). */
  answered: z.boolean(),
  /** The comment's page is a Q&A page. */
  qaPage: z.boolean(),
});
export type TQueueItem = z.output<typeof ZQueueItem>;

export const ZQueuePage = z.object({ items: z.array(ZQueueItem), nextCursor: z.string().nullable() });
export type TQueuePage = z.output<typeof ZQueuePage>;

export const ZQueueCounts = z.object({
  pending: z.number().int(),
  reported: z.number().int(),
  spam: z.number().int(),
  toxic: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  marked_spam: z.number().int(),
  published: z.number().int(),
  featured: z.number().int(),
});
export type TQueueCounts = z.output<typeof ZQueueCounts>;

// ─── actions ─────────────────────────────────────────────────────────────────────────────────

const COMMENT_ACTIONS = ["approve", "reject", "delete", "spam", "not_spam"] as const;
export type TCommentAction = (typeof COMMENT_ACTIONS)[number];

export const ZCommentActionInput = z.object({
  commentId: zId,
  action: z.enum(COMMENT_ACTIONS),
  /**
   * Change a decision another moderator (or you) already made. Without it, acting on a comment
   * that was decided otherwise is 409 "already decided": two moderators on one queue do not undo
   * each other by accident.
   */
  override: z.boolean().default(false),
  /**
   * The item's `version` as the moderator saw it: when the comment changed since (another
   * decision, an edit, a deletion), the action is refused with 409 and nothing is written.
   */
  expectedVersion: z.string().min(1).max(100).optional(),
});
export type TCommentActionInput = z.input<typeof ZCommentActionInput>;

export const ZCommentActionResult = z.object({
  /** false: the comment was already so (an idempotent repeat); nothing was written. */
  changed: z.boolean(),
  comment: ZQueueItem,
});
export type TCommentActionResult = z.output<typeof ZCommentActionResult>;

/** Undo one's own last decision on a comment, given the version that decision answered. */
export const ZUndoDecisionInput = z.object({
  commentId: zId,
  /** The `comment.version` of the action's result: the undo is refused (409) if anything changed since. */
  version: z.string().min(1).max(100),
});
export type TUndoDecisionInput = z.input<typeof ZUndoDecisionInput>;

// ─── bans ────────────────────────────────────────────────────────────────────────────────────

/** Ban durations offered (days); null is for good. */
export const BAN_DURATIONS_DAYS = [1, 7, 30, 365] as const;

export const ZBanInput = z.object({
  memberId: zId,
  reason: z.string().trim().min(1, "is required").max(500, "must be at most 500 characters"),
  /** Whole days from now, or null for good. */
  durationDays: z.number().int("must be a whole number").min(1).max(3650).nullable(),
});
export type TBanInput = z.input<typeof ZBanInput>;

export const ZLiftBanInput = z.object({ memberId: zId });

export const ZBanView = z.object({
  id: z.number().int(),
  reason: z.string(),
  expiresAt: z.date().nullable(),
  createdAt: z.date(),
  createdBy: z.string().nullable(),
  liftedAt: z.date().nullable(),
  liftedBy: z.string().nullable(),
  active: z.boolean(),
});
export type TBanView = z.output<typeof ZBanView>;

// ─── a reader's history ──────────────────────────────────────────────────────────────────────

export const ZReaderHistoryInput = z.object({ memberId: zId });

export const ZReaderHistory = z.object({
  reader: z.object({
    memberId: z.number().int(),
    name: z.string(),
    isNew: z.boolean(),
    firstCommentAt: z.date().nullable(),
    publishedComments: z.number().int(),
  }),
  comments: z.array(ZQueueItem),
  /** Reports made against this reader's comments. */
  reportsAgainst: z.array(
    z.object({
      commentId: z.number().int(),
      reason: z.enum(REPORT_REASONS),
      note: z.string().nullable(),
      createdAt: z.date(),
    }),
  ),
  bans: z.array(ZBanView),
  activeBan: ZBanView.nullable(),
});
export type TReaderHistory = z.output<typeof ZReaderHistory>;
