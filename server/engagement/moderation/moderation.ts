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
 *    (rules/rules.ts). It is published otherwise.
 * 4. Languages (docs/moderation.md "Languages"): a word of the shipped list of the comment's
 *    language flags it (as a suspect word) or holds it, as the account chooses; a comment in a
 *    language the built-in scorer does not read, scored by it alone, carries UNSCORED_REASON and
 *    its language, and waits when the account holds such comments (what the scorer found still
 *    counts either way).
 */
import type { TCommentOp } from "../comments.schema";
import type { CommentLanguage } from "./language/languages.schema";
import { URL_IN_TEXT } from "./lexicon/lexicon-scorer";
import { bannedWordAction } from "./rules/banned-words";
import { RULE_REASONS, type RuleOutcome } from "./rules/rules";
import type { CommentScore, ScorerInput, ScorerReader } from "./scorer/scorer";
import type { TModerationSettings } from "./settings.schema";

/** The reason of a comment published with a suspect word: it waits in the Reported tab until decided. */
export const SUSPECT_WORD_REASON = "flagged.suspect_word";
/** A comment in a language the built-in scorer does not read, which only that scorer scored. */
const UNSCORED_REASON = "unscored.language";

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
  "mode" | "toxicityThreshold" | "bannedWords" | "holdLinksFromNewReaders" | "unscoredLanguages" | "languageWordLists"
>;

/** What moderation knows of a comment's language (language/detect.ts, scorer/scoring.ts). */
export type LanguageFinding = {
  /** The language it was read as (null: too short to tell). */
  language: CommentLanguage | null;
  /** It holds a word of the shipped list of that language (language/shipped-words.ts). */
  shippedWord: boolean;
  /** It is in a language the built-in scorer does not read, and no other scorer scored it. */
  unscored: boolean;
};

const NO_FINDING: LanguageFinding = { language: null, shippedWord: false, unscored: false };

/** The reasons and holds of a comment's language (4 above). */
function languageOutcome(
  finding: LanguageFinding,
  settings: ModerationSettingsView,
): { reasons: string[]; held: string[] } {
  const reasons: string[] = [];
  const held: string[] = [];
  if (finding.shippedWord && settings.languageWordLists !== "off") {
    reasons.push("language.word_list");
    if (settings.languageWordLists === "flag") reasons.push(SUSPECT_WORD_REASON);
    else held.push("held.language_word_list");
  }
  if (finding.unscored && finding.language !== null) {
    reasons.push(UNSCORED_REASON, `language.${finding.language}`);
    // "external" whose scorer could not answer (none configured, or it failed) holds as well.
    if (settings.unscoredLanguages !== "publish") held.push("held.unscored_language");
  }
  return { reasons, held };
}

type ModerationDecision =
  { reject: true } | { reject: false; isPublished: boolean; isSpam: boolean; toxicity: number; reasons: string[] };

export function decideModeration(args: {
  content: Omit<ScorerInput, "reader">;
  reader: ScorerReader;
  score: CommentScore;
  settings: ModerationSettingsView;
  /** The rules' holds (rules/rules.ts applyRules); none when not given. */
  rules?: RuleOutcome;
  /** The comment's language; nothing when not given. */
  language?: LanguageFinding;
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
  const language = languageOutcome(args.language ?? NO_FINDING, settings);
  const noted = [...flagged, ...language.reasons.filter((r) => !flagged.includes(r))];
  held.push(...language.held);
  return {
    reject: false,
    isPublished: held.length === 0,
    isSpam: score.isSpam || rules.isSpam,
    toxicity: score.toxicity,
    reasons: [...score.reasons, ...noted, ...held],
  };
}
