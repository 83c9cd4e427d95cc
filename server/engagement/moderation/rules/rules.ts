/**
 * Rules before a comment is published (docs/engagement.md, "Rules before publishing"): pure
 * functions, given the account's rule settings, the page's rules and what is known of the reader.
 *
 * - A page's rules refuse a new comment: closed (403) or slow mode (429 with the seconds to wait).
 * - The account's rules hold a comment, each with its reason code: a page that pre-moderates, a
 *   reader not yet approved often enough, a reader without trust (rejection rate in a window), the
 *   same text posted on another page (held as spam), a disposable e-mail domain. Links from a
 *   reader without trust are held by decideModeration (../moderation.ts).
 */
import type { TModerationSettings } from "../settings.schema";
import { normaliseForBannedWords } from "./banned-words";

export const PAGE_COMMENT_MODES = ["open", "pre_moderation", "closed"] as const;
export type PageCommentMode = (typeof PAGE_COMMENT_MODES)[number];

/**
 * A page's rules (pages.comment_mode, pages.slow_mode_seconds), or the rules a new comment meets
 * with the page's surges (../surges/surges.ts): `heldBySurge` when a surge, not the page's own rules, holds.
 */
export type PageRules = { mode: PageCommentMode; slowModeSeconds: number; heldBySurge?: "queue" | "off_shift" };

export const OPEN_PAGE: PageRules = { mode: "open", slowModeSeconds: 0 };

/** The reason codes the rules hold with. */
export const RULE_REASONS = {
  pagePreModeration: "held.page_pre_moderation",
  surge: "held.surge",
  awaitingApprovals: "held.awaiting_approvals",
  untrusted: "held.untrusted_reader",
  untrustedLink: "held.untrusted_link",
  repeatedPost: "held.repeated_post",
  disposableEmail: "held.disposable_email",
} as const;

/** The settings the rules use. */
export type RuleSettings = Pick<
  TModerationSettings,
  | "preModerateUntilApproved"
  | "trustRejectionRate"
  | "trustWindowDays"
  | "trustMinDecisions"
  | "repeatedPostWindowMinutes"
  | "holdDisposableEmails"
>;

/** What the rules know of the reader (../writing.ts readerHistory reads it with the rest of the history). */
export type RuleHistory = {
  /** Published, not spam, not deleted comments in the account (the edited one left out). */
  publishedComments: number;
  /** Comments a moderator decided (approved, rejected, spam) within the trust window. */
  decisionsInWindow: number;
  /** Of those, rejected or marked spam. */
  rejectionsInWindow: number;
  /** The reader's latest comment on this page (slow mode). */
  lastOnPageAt: Date | null;
  /** The texts of the reader's comments on other pages within the repeated-post window. */
  textsElsewhere: readonly string[];
};

/** Texts shorter than this (normalised) are never repeats: "Thanks!" or "Agreed" on two pages is no spam. */
const REPEAT_MIN_LENGTH = 20;

/** A text as compared for repeats: read as banned words are (case, accents, leetspeak, punctuation), spaces collapsed. */
function normaliseForRepeat(text: string): string {
  return normaliseForBannedWords(text).trim();
}

/** Whether `text` is, once normalised, one of `others` (and long enough to count). */
export function isRepeatedText(text: string, others: readonly string[]): boolean {
  const own = normaliseForRepeat(text);
  if (own.length < REPEAT_MIN_LENGTH) return false;
  return others.some((other) => normaliseForRepeat(other) === own);
}

/** The domain of an e-mail address, lower-cased ("" without one). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0
    ? ""
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, "");
}

/** Whether the address is at a listed domain or under one ("x.mailinator.com"). */
export function isDisposableEmail(email: string, domains: ReadonlySet<string>): boolean {
  const parts = emailDomain(email).split(".");
  for (let i = 0; i < parts.length - 1; i++) {
    if (domains.has(parts.slice(i).join("."))) return true;
  }
  return false;
}

/**
 * A reader without trust: at least `trustMinDecisions` of their comments decided in the window,
 * and at least `trustRejectionRate` percent of those rejected or marked spam (0: never).
 */
export function isUntrusted(
  history: Pick<RuleHistory, "decisionsInWindow" | "rejectionsInWindow">,
  settings: RuleSettings,
): boolean {
  if (settings.trustRejectionRate === 0) return false;
  if (history.decisionsInWindow < settings.trustMinDecisions || history.decisionsInWindow === 0) return false;
  return history.rejectionsInWindow * 100 >= settings.trustRejectionRate * history.decisionsInWindow;
}

/** Whether the reader still waits for their first approvals (pre-moderated until N are published). */
function isAwaitingApprovals(history: Pick<RuleHistory, "publishedComments">, settings: RuleSettings): boolean {
  return history.publishedComments < settings.preModerateUntilApproved;
}

type PageRefusal = { kind: "closed" } | { kind: "slow"; retryAfterSeconds: number };

/**
 * Whether the page refuses a new comment: closed, or the reader commented there less than
 * `slowModeSeconds` ago (signed-in readers only: guests share one member, and are limited per IP).
 */
export function pageRefusal(args: {
  page: PageRules;
  lastOnPageAt: Date | null;
  guest: boolean;
  now: Date;
}): PageRefusal | null {
  const { page, lastOnPageAt, now } = args;
  if (page.mode === "closed") return { kind: "closed" };
  if (page.slowModeSeconds > 0 && !args.guest && lastOnPageAt) {
    const waitMs = lastOnPageAt.getTime() + page.slowModeSeconds * 1000 - now.getTime();
    // Capped at the slow mode: a comment written with a later clock reading than `now` (another
    // instance, or the same second's winner) must not ask for more than the slow mode's seconds.
    if (waitMs > 0)
      return { kind: "slow", retryAfterSeconds: Math.min(page.slowModeSeconds, Math.ceil(waitMs / 1000)) };
  }
  return null;
}

export type RuleOutcome = {
  /** Reason codes of the rules that hold the comment (none: the rules let it through). */
  held: string[];
  /** A repeated post is held as spam. */
  isSpam: boolean;
  /** No trust: a link from this reader is held (with hold_links_from_new_readers). */
  isUntrusted: boolean;
};

/** The holds of the account's and the page's rules (a guest has no history to trust, nor an e-mail). */
export function applyRules(args: {
  settings: RuleSettings;
  page: PageRules;
  history: RuleHistory;
  text: string;
  guest: boolean;
  email: string | null;
  /** The disposable domains (disposable-domains.ts; read only when the setting is on). */
  disposableDomains: ReadonlySet<string>;
}): RuleOutcome {
  const { settings, history } = args;
  const held: string[] = [];
  if (args.page.mode === "pre_moderation")
    held.push(args.page.heldBySurge ? RULE_REASONS.surge : RULE_REASONS.pagePreModeration);
  // A guest has no approvals of their own (one member stands for every guest): held while the rule is on.
  const awaiting = args.guest ? settings.preModerateUntilApproved > 0 : isAwaitingApprovals(history, settings);
  if (awaiting) held.push(RULE_REASONS.awaitingApprovals);
  const untrusted = !args.guest && isUntrusted(history, settings);
  if (untrusted) held.push(RULE_REASONS.untrusted);
  const repeated = settings.repeatedPostWindowMinutes > 0 && isRepeatedText(args.text, history.textsElsewhere);
  if (repeated) held.push(RULE_REASONS.repeatedPost);
  if (
    settings.holdDisposableEmails &&
    !args.guest &&
    args.email &&
    isDisposableEmail(args.email, args.disposableDomains)
  ) {
    held.push(RULE_REASONS.disposableEmail);
  }
  return { held, isSpam: repeated, isUntrusted: untrusted || awaiting };
}
