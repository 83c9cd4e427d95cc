/** The rules before publishing as pure functions (rules.ts), and how decideModeration takes them. */
import { describe, expect, it } from "vitest";

import { decideModeration } from "../moderation";
import { MODERATION_DEFAULTS } from "../settings.schema";
import {
  applyRules,
  emailDomain,
  isDisposableEmail,
  isRepeatedText,
  isUntrusted,
  OPEN_PAGE,
  pageRefusal,
  RULE_REASONS,
  type RuleHistory,
  type RuleSettings,
} from "./rules";

const OFF: RuleSettings = {
  preModerateUntilApproved: 0,
  trustRejectionRate: 0,
  trustWindowDays: 30,
  trustMinDecisions: 5,
  repeatedPostWindowMinutes: 0,
  holdDisposableEmails: false,
};
const HISTORY: RuleHistory = {
  publishedComments: 10,
  decisionsInWindow: 0,
  rejectionsInWindow: 0,
  lastOnPageAt: null,
  textsElsewhere: [],
};
const DOMAINS = new Set(["mailinator.com", "10minutemail.com"]);
const NOW = new Date("2026-11-25T12:00:00Z");

function rules(
  over: { settings?: Partial<RuleSettings>; history?: Partial<RuleHistory> } & Partial<
    Omit<Parameters<typeof applyRules>[0], "settings" | "history">
  >,
) {
  return applyRules({
    page: OPEN_PAGE,
    guest: false,
    email: "ada@example.com",
    disposableDomains: DOMAINS,
    ...over,
    settings: { ...OFF, ...over.settings },
    history: { ...HISTORY, ...over.history },
    text: over.text ?? "A perfectly ordinary comment about the article.",
  });
}

describe("applyRules", () => {
  it("holds nothing with every rule off", () => {
    expect(rules({ history: { publishedComments: 0, decisionsInWindow: 9, rejectionsInWindow: 9 } })).toEqual({
      held: [],
      isSpam: false,
      isUntrusted: false,
    });
  });

  it("pre-moderates a reader until N of their comments are published", () => {
    const settings = { preModerateUntilApproved: 2 };
    expect(rules({ settings, history: { publishedComments: 1 } }).held).toEqual([RULE_REASONS.awaitingApprovals]);
    expect(rules({ settings, history: { publishedComments: 1 } }).isUntrusted).toBe(true);
    expect(rules({ settings, history: { publishedComments: 2 } }).held).toEqual([]);
    // Guests share one member: always held while the rule is on.
    expect(rules({ settings, guest: true, history: { publishedComments: 50 } }).held).toEqual([
      RULE_REASONS.awaitingApprovals,
    ]);
  });

  it("holds a reader rejected at least the set rate, only after enough decisions", () => {
    const settings = { trustRejectionRate: 50, trustMinDecisions: 4 };
    expect(isUntrusted({ decisionsInWindow: 4, rejectionsInWindow: 2 }, { ...OFF, ...settings })).toBe(true);
    expect(isUntrusted({ decisionsInWindow: 4, rejectionsInWindow: 1 }, { ...OFF, ...settings })).toBe(false);
    expect(isUntrusted({ decisionsInWindow: 3, rejectionsInWindow: 3 }, { ...OFF, ...settings })).toBe(false);
    expect(rules({ settings, history: { decisionsInWindow: 5, rejectionsInWindow: 3 } }).held).toEqual([
      RULE_REASONS.untrusted,
    ]);
    // A guest has no history of their own (one member stands for every guest).
    expect(rules({ settings, guest: true, history: { decisionsInWindow: 5, rejectionsInWindow: 5 } }).held).toEqual([]);
  });

  it("holds the same text posted on another page as spam, read past case, accents and punctuation", () => {
    const settings = { repeatedPostWindowMinutes: 60 };
    const text = "Buy my course at the link, best deal in town!\n";
    const outcome = rules({
      settings,
      text,
      history: { textsElsewhere: ["BUY my course at the link... best déal in town\n"] },
    });
    expect(outcome).toEqual({ held: [RULE_REASONS.repeatedPost], isSpam: true, isUntrusted: false });
    expect(
      rules({ settings, text, history: { textsElsewhere: ["Something else entirely, at length.\n"] } }).held,
    ).toEqual([]);
    // Off: the same texts pass.
    expect(rules({ text, history: { textsElsewhere: [text] } }).held).toEqual([]);
  });

  it("never counts a short text as a repeat", () => {
    expect(isRepeatedText("Thanks!", ["thanks"])).toBe(false);
    expect(isRepeatedText("Great piece, thank you for this", ["great piece thank you for this"])).toBe(true);
  });

  it("holds readers with a disposable e-mail domain, or a subdomain of one", () => {
    const settings = { holdDisposableEmails: true };
    expect(rules({ settings, email: "x@Mailinator.com" }).held).toEqual([RULE_REASONS.disposableEmail]);
    expect(rules({ settings, email: "x@inbox.mailinator.com" }).held).toEqual([RULE_REASONS.disposableEmail]);
    expect(rules({ settings, email: "x@example.com" }).held).toEqual([]);
    expect(rules({ email: "x@mailinator.com" }).held).toEqual([]);
    expect(isDisposableEmail("no-at-sign", DOMAINS)).toBe(false);
    expect(emailDomain("A@B.Example.COM.")).toBe("b.example.com");
  });

  it("holds every comment on a page that pre-moderates", () => {
    expect(rules({ page: { mode: "pre_moderation", slowModeSeconds: 0 } }).held).toEqual([
      RULE_REASONS.pagePreModeration,
    ]);
  });

  it("names the surge when a surge, not the page's own rules, holds", () => {
    expect(rules({ page: { mode: "pre_moderation", slowModeSeconds: 0, heldBySurge: "queue" } }).held).toEqual([
      RULE_REASONS.surge,
    ]);
  });
});

describe("pageRefusal", () => {
  const page = { mode: "open" as const, slowModeSeconds: 60 };
  it("refuses every new comment on a closed page", () => {
    expect(
      pageRefusal({ page: { mode: "closed", slowModeSeconds: 0 }, lastOnPageAt: null, guest: true, now: NOW }),
    ).toEqual({
      kind: "closed",
    });
  });

  it("refuses a reader's comment within slow mode's seconds, with the seconds left (rounded up)", () => {
    const lastOnPageAt = new Date(NOW.getTime() - 15_500);
    expect(pageRefusal({ page, lastOnPageAt, guest: false, now: NOW })).toEqual({
      kind: "slow",
      retryAfterSeconds: 45,
    });
    expect(pageRefusal({ page, lastOnPageAt: new Date(NOW.getTime() - 60_000), guest: false, now: NOW })).toBeNull();
    expect(pageRefusal({ page, lastOnPageAt: null, guest: false, now: NOW })).toBeNull();
    // Guests share one member: slow mode leaves them to the per-IP limits.
    expect(pageRefusal({ page, lastOnPageAt, guest: true, now: NOW })).toBeNull();
    expect(pageRefusal({ page: OPEN_PAGE, lastOnPageAt, guest: false, now: NOW })).toBeNull();
  });

  it("never asks for more than slow mode's seconds, even after a comment with a later clock reading", () => {
    const later = new Date(NOW.getTime() + 700);
    expect(pageRefusal({ page, lastOnPageAt: later, guest: false, now: NOW })).toEqual({
      kind: "slow",
      retryAfterSeconds: 60,
    });
  });
});

describe("decideModeration with the rules", () => {
  const score = { toxicity: 0, isSpam: false, reasons: [] };
  const settings = { ...MODERATION_DEFAULTS, bannedWords: [] };
  const reader = { isNew: false, firstCommentAt: null, publishedComments: 5 };
  const withLink = { text: "see https://example.org\n", links: ["https://example.org"], mentions: [], images: [] };
  /** The decision on `withLink` by `reader` under `rules`, with the settings changed by `over`. */
  type Facts = Parameters<typeof decideModeration>[0];
  const decide = (rules: Facts["rules"], over: Partial<Facts["settings"]> = {}) =>
    decideModeration({ content: withLink, reader, score, settings: { ...settings, ...over }, rules });

  it("holds a link from a reader without trust (not new) with its own reason, and not with the setting off", () => {
    const untrusted = { held: [RULE_REASONS.untrusted], isSpam: false, isUntrusted: true };
    expect(decide(untrusted)).toMatchObject({
      isPublished: false,
      reasons: [RULE_REASONS.untrustedLink, RULE_REASONS.untrusted],
    });
    expect(decide(untrusted, { holdLinksFromNewReaders: false })).toMatchObject({
      isPublished: false,
      reasons: [RULE_REASONS.untrusted],
    });
    expect(decide({ held: [], isSpam: false, isUntrusted: false })).toMatchObject({ isPublished: true, reasons: [] });
  });

  it("marks a repeated post spam", () => {
    expect(decide({ held: [RULE_REASONS.repeatedPost], isSpam: true, isUntrusted: false })).toMatchObject({
      isPublished: false,
      isSpam: true,
      reasons: [RULE_REASONS.repeatedPost],
    });
  });
});
