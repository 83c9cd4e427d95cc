/**
 * Who is told what (docs/engagement.md "Notifications to readers"): the pure rules, no IO.
 *
 * Vocabulary:
 * - kind: reply (someone replied to the reader's comment), mention (someone mentioned the
 *   reader), decision (a moderator approved or rejected the reader's held comment);
 * - choice: per reader and kind, off, immediate ("at once") or digest (the daily digest);
 * - event key: what makes one notification one (per recipient): "reply:<comment id>",
 *   "mention:<comment id>", "decision:<comment id>:<approved|rejected>". The database keeps one
 *   row per (recipient, event key), so a second worker, or a rerun, tells nobody twice.
 */

import { nextDay, zonedDay, zonedHour } from "../../time-zone";

export const NOTIFICATION_KINDS = ["replies", "mentions", "decisions"] as const;
export type TNotificationKind = (typeof NOTIFICATION_KINDS)[number];
type TNotificationChoice = "off" | "immediate" | "digest";
export type TNotificationPrefs = Record<TNotificationKind, TNotificationChoice>;

/** A reader who never chose: every kind at once. */
export const DEFAULT_PREFS: TNotificationPrefs = {
  replies: "immediate",
  mentions: "immediate",
  decisions: "immediate",
};

/** The hour of the day, on the reader's clocks (UTC for a reader whose zone is not known), the daily digest goes out. */
const DIGEST_HOUR = 7;

export type TDecision = "approved" | "rejected";

/** What happened to a comment, as the notification job sees it. */
export type TCommentFacts = {
  id: number;
  authorId: number;
  /** Published, not spam, not hidden, not deleted (and its parent listed, for a reply). */
  visible: boolean;
  moderationState: "UNDECIDED" | "APPROVED" | "REJECTED" | "SPAM";
  deleted: boolean;
  /** A guest's comment: its author (the account's guest member) is nobody to write to. */
  guest: boolean;
  /** The author of the comment replied to, for a reply. */
  parentAuthorId: number | null;
  /** Members mentioned in the body (ids as the ops carry them), each once. */
  mentionedIds: number[];
};

/** A member who might be told: what the rules need to know of them. */
export type TRecipientFacts = {
  memberId: number;
  /** The address to write to, or null when the reader has no verified one (recipientAddress). */
  address: string | null;
  banned: boolean;
  prefs: TNotificationPrefs;
  /** The reader's IANA time zone, for the digest's hour ("UTC" when not known). */
  timeZone: string;
};

type TNotificationEvent = {
  kind: TNotificationKind;
  memberId: number;
  commentId: number;
  eventKey: string;
  decision?: TDecision;
};

/** What a moderator's decision is judged on: the comment before and after it. */
export type HeldState = {
  isPublished: boolean;
  moderationState: TCommentFacts["moderationState"];
  deletedAt: Date | null;
};

/**
 * The decision a reader hears about: a moderator approved (and so published) or rejected their
 * held comment (unpublished, not deleted, before). Marking spam, deleting, and decisions on a
 * comment that was already published tell nothing.
 */
export function heldDecision(before: HeldState, after: HeldState): TDecision | undefined {
  if (before.isPublished || before.deletedAt || after.deletedAt) return undefined;
  if (after.moderationState === "APPROVED" && after.isPublished) return "approved";
  if (after.moderationState === "REJECTED" && before.moderationState !== "REJECTED") return "rejected";
  return undefined;
}

/** The events a comment's change makes: its reply and mentions once visible, a moderator's decision. */
export function eventsOf(comment: TCommentFacts, cause: { decision?: TDecision }): TNotificationEvent[] {
  const events: TNotificationEvent[] = [];
  const at = (kind: TNotificationKind, memberId: number, eventKey: string, decision?: TDecision) =>
    events.push({ kind, memberId, commentId: comment.id, eventKey, ...(decision ? { decision } : {}) });
  if (cause.decision) at("decisions", comment.authorId, `decision:${comment.id}:${cause.decision}`, cause.decision);
  if (comment.visible) {
    if (comment.parentAuthorId !== null) at("replies", comment.parentAuthorId, `reply:${comment.id}`);
    for (const id of comment.mentionedIds) {
      // A reply that also mentions the parent's author is told once, as a reply.
      if (id !== comment.parentAuthorId) at("mentions", id, `mention:${comment.id}`);
    }
  }
  return events;
}

/**
 * Whether the comment is still worth telling about now: a reply while the comment is visible; a
 * mention while it is visible and its body still mentions the reader (an edit may have taken the
 * mention out); an approval while it is visible; a rejection while it stays rejected and not
 * deleted.
 */
export function stillTrue(
  event: Pick<TNotificationEvent, "kind" | "decision" | "memberId">,
  comment: TCommentFacts,
): boolean {
  if (event.kind === "decisions" && event.decision === "rejected") {
    return comment.moderationState === "REJECTED" && !comment.deleted;
  }
  if (event.kind === "mentions" && !comment.mentionedIds.includes(event.memberId)) return false;
  return comment.visible;
}

/**
 * How a reader is told of an event, or null when they are not: never about their own actions,
 * never a banned reader, a guest's comment's author, a reader without a verified address or one
 * who turned the kind off, never about a comment that is no longer as the event says.
 */
export function deliveryFor(
  event: TNotificationEvent,
  comment: TCommentFacts,
  recipient: TRecipientFacts | undefined,
): "immediate" | "digest" | null {
  if (!recipient) return null;
  // Their own comment: a reader does not hear about their own reply or mention (a decision is a
  // moderator's action, which the author did not take).
  if (event.kind !== "decisions" && recipient.memberId === comment.authorId) return null;
  if (event.kind === "decisions" && comment.guest) return null;
  if (recipient.banned || recipient.address === null) return null;
  if (!stillTrue(event, comment)) return null;
  const choice = recipient.prefs[event.kind];
  return choice === "off" ? null : choice;
}

/** The address a member may be written to: a verified sign-in e-mail, or the publisher's word for it. */
export function recipientAddress(member: {
  email: string;
  emailVerified: boolean;
  communicationEmail: string | null;
  source: string;
}): string | null {
  const usable = (address: string | null) =>
    address !== null && /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/.test(address) && !address.endsWith(".invalid");
  if (member.emailVerified && usable(member.email)) return member.email;
  // A publisher-JWT reader's e-mail is in the claims the publisher signed with the account's key:
  // the publication has verified its own reader (docs/engagement.md "Notifications to readers").
  if (member.source === "publisher" && usable(member.communicationEmail)) return member.communicationEmail;
  return null;
}

/**
 * When the digest holding something that happened at `now` goes out: the next DIGEST_HOUR on the
 * reader's clocks in `zone` (a zone this runtime does not know: UTC's).
 */
export function nextDigestAt(now: Date, zone = "UTC"): Date {
  const tz = knownZone(zone);
  const today = zonedDay(now, tz);
  const at = zonedHour(today, DIGEST_HOUR, tz);
  return at.getTime() > now.getTime() ? at : zonedHour(nextDay(today), DIGEST_HOUR, tz);
}

function knownZone(zone: string): string {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/** A digest's items grouped by kind (replies, mentions, decisions, in that order), oldest first in each. */
export function groupDigest<T extends { kind: TNotificationKind; createdAt: Date; id: bigint | number }>(
  items: readonly T[],
): { kind: TNotificationKind; items: T[] }[] {
  const sorted = [...items].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || Number(BigInt(a.id) - BigInt(b.id)),
  );
  return NOTIFICATION_KINDS.map((kind) => ({ kind, items: sorted.filter((i) => i.kind === kind) })).filter(
    (g) => g.items.length > 0,
  );
}
