/**
 * How a toxic word is read in its sentence (./toxicity-rules.ts): inside reported speech or a
 * quotation (it counts a quarter), and whether it is aimed at someone.
 */
import { type NormalisedText, type Token } from "./text-normalise";
import { tokensBySentence } from "./toxicity-patterns";
import { SECOND_PERSON, WORD_KIND, type WordKind } from "./word-lists";

// ─── reported speech ─────────────────────────────────────────────────────────────────────────

/** Words that make a whole sentence a report of a case: courts, police, inquests, the news. */
const REPORTING_NOUNS = new Set([
  "jury",
  "jurors",
  "inquest",
  "prosecutor",
  "prosecutors",
  "prosecution",
  "defendant",
  "convicted",
  "charged",
  "sentenced",
  "pleaded",
  "testified",
  "verdict",
  "arrested",
  "bodycam",
  "headline",
  "slogan",
  "chanted",
  "chant",
  "quoted",
  "quoting",
  "quotes",
  "allegedly",
  "accused",
]);
/** Verbs that report what someone else said or wrote, when their subject is not "I", "we" or "you". */
const REPORTING_VERBS = new Set([
  "said",
  "says",
  "told",
  "telling",
  "tells",
  "wrote",
  "writes",
  "shouted",
  "shouting",
  "yelled",
  "yelling",
  "screamed",
  "screaming",
  "tweeted",
  "posted",
  "texted",
  "messaged",
  "claimed",
  "called",
  "calling",
  "threatening",
  "threatened",
  "read",
  "saying",
  "chanting",
  "sent",
  "sending",
  "heard",
]);
const FIRST_OR_SECOND = new Set(["i", "we", "you", "u", "ya", "ye", "me"]);
const RELATIVE = new Set(["who", "that", "which", "whoever"]);

/**
 * For each token, whether it is reported: its sentence names a court, a trial, the police's
 * statement…, or a reporting verb with a third-person subject comes before it in its clause.
 */
export function reportedTokens(tokens: Token[]): boolean[] {
  const reported = new Array<boolean>(tokens.length).fill(false);
  for (const indexes of tokensBySentence(tokens).values()) {
    const nounCue = indexes.some((i) => {
      const t = tokens[i]!;
      if (REPORTING_NOUNS.has(t.text)) return true;
      if (t.text === "according" && tokens[i + 1]?.text === "to") return true;
      // "the court heard", "told the court", "the judge said".
      if (/^(?:court|judge|magistrates?|tribunal|trial)$/.test(t.text)) {
        const near = [tokens[i - 1]?.text, tokens[i - 2]?.text, tokens[i + 1]?.text].join(" ");
        if (/\b(?:heard|told|said|says|described|called|was told|in|at|during)\b/.test(near)) return true;
      }
      return t.text === "police" && /^(?:say|says|said|statement)$/.test(tokens[i + 1]?.text ?? "");
    });
    if (nounCue) {
      for (const i of indexes) reported[i] = true;
      continue;
    }
    let cueClause = -1;
    for (const i of indexes) {
      const t = tokens[i]!;
      const subject = tokens[i - 1]?.text ?? "";
      // Not "I said", nor "the hack who wrote this" (the writer named, not quoted).
      if (REPORTING_VERBS.has(t.text) && !FIRST_OR_SECOND.has(subject) && !RELATIVE.has(subject)) {
        // "the man told him to…", "was banned for calling the referee…": the rest of the clause.
        cueClause = t.clause;
      }
      if (cueClause === t.clause) reported[i] = true;
    }
  }
  return reported;
}

// ─── aiming ──────────────────────────────────────────────────────────────────────────────────

/** Words that may stand between "you" and an insult and still aim it: "you are such a pathetic…". */
const BRIDGE = new Set([
  "are",
  "r",
  "is",
  "be",
  "being",
  "been",
  "must",
  "really",
  "truly",
  "genuinely",
  "clearly",
  "obviously",
  "just",
  "such",
  "so",
  "sooo",
  "a",
  "an",
  "the",
  "absolute",
  "absolutely",
  "complete",
  "completely",
  "total",
  "totally",
  "utter",
  "utterly",
  "little",
  "big",
  "old",
  "one",
  "of",
  "most",
  "biggest",
  "worst",
  "nothing",
  "but",
  "deeply",
  "very",
  "pretty",
  "seriously",
  "and",
  "an",
  "still",
  "always",
  "such",
  "proper",
  "right",
  "fully",
  "certified",
  "es",
  "bist",
  "ein",
  "eine",
  "einer",
  "un",
  "une",
  "una",
  "vraiment",
  "eres",
  "muy",
  "y",
  "espece",
  "d",
  "de",
  "too",
  "like",
  "as",
  "all",
  "are",
  "smug",
  "pathetic",
  "honestly",
  "literally",
  "actually",
  "beyond",
  "incredibly",
  "unbelievably",
  "remarkably",
  "exceptionally",
  "painfully",
  "hopelessly",
  "quite",
  "rather",
  "this",
  "that",
  "even",
  "ever",
  "only",
  "now",
  "officially",
  "simply",
  "also",
  "probably",
  "definitely",
  "easily",
  "far",
  "by",
  "sound",
  "sounds",
  "look",
  "looks",
  "seem",
  "seems",
  "act",
  "acting",
  "behave",
  "behaving",
  "talk",
  "hey",
  "oi",
  "listen",
  "ok",
  "okay",
  "yes",
  "lol",
  "lmao",
  "haha",
  "well",
  "mate",
  "pal",
  "buddy",
  "sweetheart",
  "love",
  "dear",
  "sir",
  "madam",
  "ya",
  "thou",
  "art",
  "echt",
  "zu",
  "sehr",
  "wirklich",
  "ganz",
  "tan",
  "trop",
  "tellement",
  "si",
]);
const THIRD_PARTY_DETERMINERS = new Set([
  "the",
  "those",
  "these",
  "some",
  "other",
  "all",
  "many",
  "most",
  "his",
  "her",
  "their",
  "our",
  "my",
]);
const AIM_AFTER_VERB = new Set([
  "you",
  "u",
  "ya",
  "yourself",
  "yourselves",
  "urself",
  "off",
  "your",
  "ur",
  "yall",
  "him",
  "her",
  "them",
  "this",
  "that",
]);
const LEAD_WORDS =
  /(?:^| )(?:is an?|are|was an?|were|such an?|what an?|bunch of|pack of|load of|total|complete|absolute|utter|proper|you|another|nothing but an?|is the|are the|is such an?|ur an?|what kind of(?: an?)?|what sort of(?: an?)?|what type of(?: an?)?|hey|oi|the resident|resident)(?: [^ ]+)?(?: (?:little|old|fat|big|lying|sad|nasty|dirty|lazy|slimy|smug|arrogant|ignorant|utter|total|complete|absolute|stupid|pathetic|useless|worthless|spineless|vile|filthy))?$/;
const PROFANE_VERBS = new Set(["fuck", "fck", "fcuk", "fuk", "fvck", "phuck", "fuq", "screw", "wank"]);
/** Forms of the profane verbs ("fucked", "wanks"): aimed only by what follows them ("fuck you"). */
const PROFANE_VERB_FORM = /^(?:fuck|fck|fcuk|fuk|fvck|phuck|fuq|wank)(?:s|ed|ery)?$/;

const isInsultWord = (text: string) => {
  const kind = WORD_KIND.get(text);
  return kind !== undefined && kind !== "clinical" && kind !== "sexual";
};

type Aim = "none" | "strict" | "loose";
/** How each kind of word is aimed: nouns loosely (three words after "you", or after "is a"), others strictly. */
const AIM_OF: Record<WordKind, Aim> = {
  slur: "loose",
  vulgar_noun: "loose",
  strong: "loose",
  intensifier: "none",
  mild: "strict",
  sexual: "none",
  clinical: "none",
  insult_noun: "loose",
  aimed_noun: "loose",
  you_noun: "strict",
  adjective: "strict",
  you_adjective: "strict",
};

export function isAimedWord(n: NormalisedText, i: number, kind: WordKind): boolean {
  const { tokens } = n;
  const token = tokens[i]!;
  const aim = AIM_OF[kind];
  if (aim === "none") return false;
  const sameClause = (j: number) =>
    j >= 0 && j < tokens.length && tokens[j]!.clause === token.clause && !tokens[j]!.punct;
  // Strict: "you" and only bridge words or insults before the word, in its clause (ten words at most).
  for (let j = i - 1; j >= i - 10 && sameClause(j); j -= 1) {
    const text = tokens[j]!.text;
    if (SECOND_PERSON.has(text) || text === "ur") return true;
    if (!BRIDGE.has(text) && !isInsultWord(text)) break;
  }
  if (
    (tokens[i + 1]?.text === "as" || tokens[i + 1]?.text === "like") &&
    SECOND_PERSON.has(tokens[i + 2]?.text ?? "")
  ) {
    return true;
  }
  // "what a worthless human being you are": "you are" closing the clause a few words after.
  for (let j = i + 1; j <= i + 5 && sameClause(j); j += 1) {
    if (SECOND_PERSON.has(tokens[j]!.text) && /^(?:are|r)$/.test(tokens[j + 1]?.text ?? "") && !sameClause(j + 2)) {
      return true;
    }
  }
  if (kind === "strong" && PROFANE_VERBS.has(token.text)) {
    const next = tokens[i + 1];
    if (next && !next.punct && AIM_AFTER_VERB.has(next.text)) return true;
  }
  if (aim !== "loose" || PROFANE_VERB_FORM.test(token.text)) return false;
  // Loose: a second person among the three words before, in the clause ("you make me sick, idiot" is not);
  // or among the six before when no "the", "those"… makes the noun someone else ("you and the idiots").
  const thirdParty = [i - 1, i - 2].some((j) => sameClause(j) && THIRD_PARTY_DETERMINERS.has(tokens[j]!.text));
  for (let j = i - 1; j >= i - 6 && sameClause(j); j -= 1) {
    if ((SECOND_PERSON.has(tokens[j]!.text) || tokens[j]!.text === "ur") && (j >= i - 3 || !thirdParty)) return true;
  }
  const next = tokens[i + 1];
  if (kind !== "aimed_noun" && next && !next.punct && (next.text === "you" || next.text === "u")) return true;
  // "is a moron", "what a clown", "absolute pig".
  let before = "";
  for (let j = i - 1; j >= i - 4 && sameClause(j); j -= 1) before = `${tokens[j]!.text} ${before}`;
  // Not "I was a complete fool", "my dog is a right idiot", "what an idiot I am": said of oneself or one's own.
  const selfSaid = (() => {
    for (let j = i + 1; j <= i + 4 && sameClause(j); j += 1) {
      if (tokens[j]!.text === "i" && /^(?:am|was)$/.test(tokens[j + 1]?.text ?? "")) return true;
    }
    for (let j = i - 1; j >= i - 5 && sameClause(j); j -= 1) {
      if (/^(?:is|was|am|are|were|feel|felt)$/.test(tokens[j]!.text)) {
        return tokens[j - 1]?.text === "i" || tokens[j - 2]?.text === "my";
      }
    }
    return false;
  })();
  if (!selfSaid && LEAD_WORDS.test(` ${before.trim()}`)) return true;
  // "a moron like you", "as worthless as you are".
  if (
    (tokens[i + 1]?.text === "like" || tokens[i + 1]?.text === "as") &&
    SECOND_PERSON.has(tokens[i + 2]?.text ?? "")
  ) {
    return true;
  }
  // A form of address standing alone: "Clown.", "Absolute moron!", ", loser," (five words at most).
  let words = 0;
  for (let j = i - 1; sameClause(j); j -= 1) {
    words += 1;
    const text = tokens[j]!.text;
    if (words > 4 || (!BRIDGE.has(text) && !isInsultWord(text) && !SECOND_PERSON.has(text))) return false;
  }
  for (let j = i + 1; sameClause(j); j += 1) {
    words += 1;
    if (words > 4 || (!BRIDGE.has(tokens[j]!.text) && !isInsultWord(tokens[j]!.text))) return false;
  }
  return true;
}
