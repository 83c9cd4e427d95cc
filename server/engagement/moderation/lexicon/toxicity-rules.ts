/**
 * Toxicity of a comment from rules (docs/moderation.md, "The scorer"): words of the lists
 * (word-lists.ts) and patterns over the normalised text (text-normalise.ts), each a signal with a
 * weight from 0 to 1 and a category, combined as a noisy OR: toxicity = 100 × (1 − Π(1 − w)).
 *
 * - Words: slurs, vulgar words for a person, profanity, insults. Each distinct word counts once.
 * - Aimed at someone: an insult, a vulgar word or a slur said to the reader ("you idiot", "you are
 *   such a pathetic little troll", "fuck you"), after "is a", "what a", "absolute"…, or standing
 *   alone as a form of address ("Clown."); dismissals ("shut up", "get a life") always. One extra
 *   signal, however many are aimed.
 * - Threats and incitement, with or without a swear word: intent ("I will break your jaw"),
 *   intimidation ("we know where you live", "be a shame if something happened"), incitement
 *   ("someone should…", "should be shot", "hang the lot of them"), death wishes.
 * - Self-harm incitement: "kill yourself", "kys", "jump off a bridge", "nobody would miss you"…
 * - Identity attacks: a group named (religion, origin, sexuality, sex, disability, age) in the same
 *   sentence as dehumanising words ("vermin", "a plague"), said to be criminals, liars… ("X are
 *   thieves", "they're all…"), or with the usual tropes ("go back to…", "should all be deported").
 * - Reported speech and quotations: a signal inside quotation marks, or in a clause that reports
 *   someone else's words ("he told her to…", "was charged with…", "the court heard…") counts a
 *   quarter and aims at no one, so a court report that quotes a threat is not held.
 * - Shouting: a text mostly in capitals, only with another signal.
 */
import { TOXIC_CATEGORIES, type ToxicCategory } from "../scorer/scorer";
import { capitals, normalise, tokenAt } from "./text-normalise";
import { identityAttacks, threatsByParts } from "./toxicity-attacks";
import { NEGATIONS, PATTERN_KIND, PATTERNS } from "./toxicity-patterns";
import { isAimedWord, reportedTokens } from "./toxicity-reading";
import {
  REPORTED_FACTOR,
  TOXIC_WEIGHTS,
  type Signal,
  type ToxicityAnalysis,
  type WeightName,
} from "./toxicity-weights";
import { WORD_KIND, type WordKind } from "./word-lists";

// ─── scoring ─────────────────────────────────────────────────────────────────────────────────

const WORD_SIGNAL: Record<
  WordKind,
  { weight: WeightName; categories: ToxicCategory[]; reason: string; onlyAimed?: boolean }
> = {
  slur: { weight: "slur", categories: ["identity_attack"], reason: "toxicity.slur" },
  vulgar_noun: { weight: "vulgarInsult", categories: ["insult", "obscenity"], reason: "toxicity.insult" },
  strong: { weight: "strong", categories: ["obscenity"], reason: "toxicity.profanity" },
  intensifier: { weight: "strong", categories: ["obscenity"], reason: "toxicity.profanity" },
  mild: { weight: "mild", categories: ["obscenity"], reason: "toxicity.profanity" },
  sexual: { weight: "sexual", categories: ["obscenity"], reason: "toxicity.profanity" },
  clinical: { weight: "clinical", categories: ["obscenity"], reason: "toxicity.profanity" },
  insult_noun: { weight: "insult", categories: ["insult"], reason: "toxicity.insult" },
  aimed_noun: { weight: "insult", categories: ["insult"], reason: "toxicity.insult", onlyAimed: true },
  you_noun: { weight: "insult", categories: ["insult"], reason: "toxicity.insult", onlyAimed: true },
  adjective: { weight: "adjective", categories: ["insult"], reason: "toxicity.insult" },
  you_adjective: { weight: "adjective", categories: ["insult"], reason: "toxicity.insult", onlyAimed: true },
};

/** Nouns for a person, which an insulting adjective before them makes an insult ("a pathetic man"). */
const PERSON_NOUN =
  /^(?:commenter|commenters|poster|posters|person|man|woman|human|individual|creature|child|troll|trolls|guy|bloke|writer|journalist|columnist|reporter|author|hack|people|lot|specimen|excuse|boy|girl|loser)$/;

/** Words that, in the same comment, make "we will kill them" a match report rather than a threat. */
const SPORT_WORDS =
  /(?:^| )(?:match|game|games|season|league|goal|goals|lads|fans|pitch|cup|final|derby|side|team|points|keeper|striker|ref|referee|saturday|sunday|weekend|innings|try|tries|scrum|title)(?= |$)/;

const noisyOr = (weights: number[]) => 100 * (1 - weights.reduce((product, w) => product * (1 - w), 1));
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Toxicity 0–100, its categories and its reasons. */
export function analyseToxicity(text: string): ToxicityAnalysis {
  const n = normalise(text);
  const { tokens } = n;
  const reported = reportedTokens(tokens);
  // Quotation marks only dampen when something stands outside them (a comment wholly in quotes is the reader's own).
  const anyOutside = tokens.some((t) => !t.punct && !t.quoted);
  const isReported = (from: number, to: number) => {
    for (let i = from; i <= to; i += 1) if ((anyOutside && tokens[i]!.quoted) || reported[i]) return true;
    return false;
  };
  const signals = new Map<string, Signal>();
  const add = (signal: Signal) => {
    const before = signals.get(signal.key);
    const effective = (s: Signal) => (s.reported ? s.weight * REPORTED_FACTOR : s.weight) + (s.aimed ? 0.001 : 0);
    if (!before || effective(signal) > effective(before)) signals.set(signal.key, signal);
  };

  tokens.forEach((token, i) => {
    if (token.punct) return;
    const kind = WORD_KIND.get(token.text);
    if (!kind) return;
    // An insulting adjective said of a person ("the stupidest commenter", "a moronic poster") is an insult noun.
    if ((kind === "adjective" || kind === "you_adjective") && PERSON_NOUN.test(tokens[i + 1]?.text ?? "")) {
      const dampened = isReported(i, i + 1);
      const aimed = !dampened && isAimedWord(n, i + 1, "insult_noun");
      add({
        key: `person:${token.text}`,
        weight: TOXIC_WEIGHTS.insult,
        categories: ["insult"],
        reason: "toxicity.insult",
        aimed,
        reported: dampened,
      });
    }
    const spec = WORD_SIGNAL[kind];
    const dampened = isReported(i, i);
    const aimed = !dampened && isAimedWord(n, i, kind);
    if (spec.onlyAimed && !aimed) return;
    add({
      key: `word:${token.text}`,
      weight: TOXIC_WEIGHTS[spec.weight],
      categories: spec.categories,
      reason: spec.reason,
      aimed,
      reported: dampened,
    });
  });

  const sporty = SPORT_WORDS.test(n.canon);
  for (const pattern of PATTERNS) {
    pattern.re.lastIndex = 0;
    for (const m of n.canon.matchAll(pattern.re)) {
      let from = tokenAt(n, m.index);
      const to = tokenAt(n, m.index + Math.max(0, m[0].length - 1));
      while (from < to && tokens[from]!.punct) from += 1;
      if (pattern.negatable !== false) {
        const near = [from - 2, from - 1].filter((j) => j >= 0 && tokens[j]!.sentence === tokens[from]!.sentence);
        const inside = Array.from({ length: to - from + 1 }, (_, k) => from + k);
        if ([...near, ...inside].some((j) => NEGATIONS.has(tokens[j]!.text))) continue;
      }
      const spec = PATTERN_KIND[pattern.kind];
      let dampened = isReported(from, to);
      if (pattern.kind === "threat" && sporty && /(?:them|him|her|the lot|those|these)$/.test(m[0])) dampened = true;
      // "The keeper should be shot for that howler": hyperbole about players and referees.
      if (pattern.kind === "threat" && sporty && /^(?:should_be|should_die|deserves)$/.test(pattern.name))
        dampened = true;
      const aimed =
        !dampened &&
        (pattern.kind === "dismissal" ||
          ((pattern.kind === "insult_phrase" || pattern.kind === "vulgar_phrase") &&
            isAimedWord(n, from, "insult_noun")));
      add({
        key: `pattern:${pattern.name}`,
        weight: TOXIC_WEIGHTS[spec.weight],
        categories: pattern.kind === "vulgar_phrase" ? ["insult", "obscenity"] : [spec.category],
        reason: spec.reason,
        aimed,
        reported: dampened,
      });
    }
  }

  for (const hit of threatsByParts(n)) {
    const dampened =
      isReported(hit.from, hit.to) ||
      (sporty && /^(?:them|him|her)$/.test(tokens[hit.to]!.text) && !n.canon.includes(" you"));
    add({
      key: "threat_parts",
      weight: TOXIC_WEIGHTS.threat,
      categories: ["threat"],
      reason: "toxicity.threat",
      aimed: false,
      reported: dampened,
    });
  }
  for (const hit of identityAttacks(n)) {
    add({
      key: "identity",
      weight: TOXIC_WEIGHTS.identityAttack,
      categories: ["identity_attack"],
      reason: "toxicity.identity_attack",
      aimed: false,
      reported: isReported(hit.from, hit.to),
    });
  }

  // The middle finger is a vulgar insult to someone.
  if (text.includes("🖕")) {
    add({
      key: "gesture",
      weight: TOXIC_WEIGHTS.vulgarInsult,
      categories: ["insult", "obscenity"],
      reason: "toxicity.insult",
      aimed: false,
      reported: false,
    });
  }

  const categories = Object.fromEntries(TOXIC_CATEGORIES.map((c) => [c, 0])) as Record<ToxicCategory, number>;
  if (signals.size === 0) return { toxicity: 0, categories, reasons: [] };

  const reasons = new Set<string>();
  const weights: number[] = [];
  const byCategory = new Map<ToxicCategory, number[]>();
  let aimed = false;
  let anyReported = false;
  for (const signal of signals.values()) {
    const weight = signal.reported ? signal.weight * REPORTED_FACTOR : signal.weight;
    weights.push(weight);
    reasons.add(signal.reason);
    for (const c of signal.categories) byCategory.set(c, [...(byCategory.get(c) ?? []), weight]);
    if (signal.aimed) aimed = true;
    if (signal.reported) anyReported = true;
  }
  if (aimed) {
    weights.push(TOXIC_WEIGHTS.aimed);
    reasons.add("toxicity.aimed");
    byCategory.set("insult", [...(byCategory.get("insult") ?? []), TOXIC_WEIGHTS.aimed]);
  }
  const caps = capitals(text);
  if (caps.letters >= 8 && caps.upperShare >= 0.8) {
    weights.push(TOXIC_WEIGHTS.shouting);
    reasons.add("toxicity.shouting");
  }
  if (anyReported) reasons.add("toxicity.reported");
  for (const [c, ws] of byCategory) categories[c] = round1(noisyOr(ws));
  return { toxicity: round1(noisyOr(weights)), categories, reasons: [...reasons] };
}
