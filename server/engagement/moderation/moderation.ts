/**
 * The moderation decision for a comment being created or edited (docs/engagement.md,
 * "Moderation"): pure functions, given the ops, the reader's history, the account's settings and
 * the scorer's answer.
 *
 * 1. A banned word of action "reject" refuses the comment (400, the word list is never named).
 * 2. A suspect word (action "flag") holds nothing: it adds the reason SUSPECT_WORD_REASON, which
 *    puts the comment in the moderators' Reported tab until one decides.
 * 3. Otherwise the comment waits (is_published false) when any of these holds: the account
 *    pre-moderates; toxicity ≥ the account's threshold; the scorer says spam; a banned word of
 *    action "hold"; a link (link op, or URL in the text) from a reader without trust (new, or so
 *    found by the rules) while the account holds those; a rule before publishing holds it
 *    (rules.ts). It is published otherwise.
 */
import type { TCommentOp } from "../comments.schema";
import { bannedWordAction } from "./banned-words";
import { URL_IN_TEXT } from "./lexicon-scorer";
import { RULE_REASONS, type RuleOutcome } from "./rules";
import type { CommentScore, ScorerInput, ScorerReader } from "./scorer";
import type { TModerationSettings } from "./settings.schema";

/** The reason of a comment published with a suspect word: it waits in the Reported tab until decided. */
export const SUSPECT_WORD_REASON = "flagged.suspect_word";

/**
 * A reader is new while their first comment in the account is less than `days` old, or while they
 * have fewer than `publishedComments` published comments there (so a first comment is new).
 */
export const NEW_READER = { days: 3, publishedComments: 3 } as const;

export function isNewReader(history: { firstCommentAt: Date | null; publishedComments: number }, now: Date): boolean {
  if (history.firstCommentAt === null) return true;
  if (history.publishedComments < NEW_READER.publishedComments) return true;
  return now.getTime() - history.firstCommentAt.getTime() < NEW_READER.days * 24 * 60 * 60 * 1000;
}

/** The text, links, mentions and images of a comment's ops, as a scorer is given them. */
export function contentOf(ops: readonly TCommentOp[]): Omit<ScorerInput, "reader"> {
  let text = "";
  const links = new Set<string>();
  const mentions: ScorerInput["mentions"] = [];
  const images: string[] = [];
  for (const op of ops) {
    if (typeof op.insert === "string") {
      text += op.insert;
      if ("attributes" in op && "link" in op.attributes && !("mention" in op.attributes)) {
        links.add(op.attributes.link);
      }
    } else if ("image" in op.insert) {
      images.push(op.insert.image);
    } else if ("attributes" in op && "mention" in op.attributes) {
      mentions.push({ id: op.attributes.mention.id, name: op.attributes.mention.name });
    }
  }
  for (const url of text.match(URL_IN_TEXT) ?? []) links.add(url);
  return { text, links: [...links], mentions, images };
}

/** The settings the decision uses (settings.schema.ts). */
export type ModerationSettingsView = Pick<
  TModerationSettings,
  "mode" | "toxicityThreshold" | "bannedWords" | "holdLinksFromNewReaders"
>;

type ModerationDecision =
  { reject: true } | { reject: false; isPublished: boolean; isSpam: boolean; toxicity: number; reasons: string[] };

export function decideModeration(args: {
  content: Omit<ScorerInput, "reader">;
  reader: ScorerReader;
  score: CommentScore;
  settings: ModerationSettingsView;
  /** The rules' holds (rules.ts applyRules); none when not given. */
  rules?: RuleOutcome;
}): ModerationDecision {
  const { content, reader, score, settings } = args;
  const rules = args.rules ?? { held: [], isSpam: false, isUntrusted: false };
  const banned = bannedWordAction(content.text, settings.bannedWords);
  if (banned === "reject") return { reject: true };
  const held: string[] = [];
  if (settings.mode === "pre_moderation") held.push("held.pre_moderation");
  if (score.toxicity >= settings.toxicityThreshold) held.push("held.toxicity");
  if (score.isSpam) held.push("held.spam");
  if (banned === "hold") held.push("held.banned_word");
  // A suspect word publishes the comment and puts it before a moderator (the Reported tab).
  const flagged = banned === "flag" ? [SUSPECT_WORD_REASON] : [];
  if (settings.holdLinksFromNewReaders && content.links.length > 0) {
    if (reader.isNew) held.push("held.new_reader_link");
    else if (rules.isUntrusted) held.push(RULE_REASONS.untrustedLink);
  }
  held.push(...rules.held);
  return {
    reject: false,
    isPublished: held.length === 0,
    isSpam: score.isSpam || rules.isSpam,
    toxicity: score.toxicity,
    reasons: [...score.reasons, ...flagged, ...held],
  };
}
