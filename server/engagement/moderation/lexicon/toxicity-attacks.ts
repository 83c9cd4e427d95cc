/**
 * Toxicity found by a sentence's parts rather than by one word or pattern (./toxicity-rules.ts):
 * identity attacks (a group named beside dehumanising words, smears or tropes) and threats (someone
 * who means it, a verb of harm, a person).
 */
import { tokenAt, type NormalisedText, type Token } from "./text-normalise";
import { NEGATIONS, rx, tokensBySentence } from "./toxicity-patterns";
import {
  DEHUMANISING_WORDS,
  GROUP_ADJECTIVES,
  GROUP_NOUNS,
  GROUP_SYMPATHY_WORDS,
  PEOPLE_WORDS,
  SECOND_PERSON,
  SMEAR_WORDS,
  WORD_KIND,
} from "./word-lists";

// ─── identity attacks ────────────────────────────────────────────────────────────────────────

/** Group adjectives too common before things ("old systems", "black cabs") to name people before any plural. */
const BROAD_ADJECTIVES = new Set([
  "old",
  "elderly",
  "white",
  "black",
  "woman",
  "gay",
  "lesbian",
  "bisexual",
  "trans",
  "transgender",
  "disabled",
  "handicapped",
  "autistic",
  "english",
  "american",
]);
const COPULAS = new Set(["are", "is", "=", "r", "were", "sont", "son", "sind", "remain", "all", "being", "be"]);
const GROUP_TROPES = rx(
  [
    "(?:take|taking|took|steal|stealing|stole) (?:all )?our (?:jobs|homes|houses|benefits|women|country|money)",
    "(?:run|runs|running|control|controls|controlling|own|owns) (?:everything|the world|the media|the banks|the government|hollywood|the press)",
    "pulling (?:all )?the strings",
    "go home(?= [.,!?;:]| *$)|go back (?:to|where)|get out of (?:our|my) (?:country|town|city)",
    "(?:send|kick|throw|keep|get|drive|ship) (?:them |the {w} |these {w} |those {w} |every last one of (?:these |those |them )?|all )?(?:{w} )?(?:out|back|home)",
    "should (?:all )?(?:be )?(?:deported|banned|removed|sent back|kicked out|thrown out|locked up|sterilised|sterilized|expelled|rounded up)",
    "(?:should|must) not be allowed (?:to|near|in|anywhere)",
    "(?:have|has) no (?:morals|shame|culture|values|loyalty|brains)",
    "can not (?:be )?trust(?:ed)?",
    "in (?:their|the) (?:blood|dna|genes|nature)|by nature",
    "not welcome|no son bienvenidos|pas les bienvenus|nicht willkommen|que se vayan|raus(?= |$)|dehors(?= |$)",
    "(?:outnumber|replace|replacing|outbreed) us|breed like|spread (?:disease|diseases|crime)",
    "less intelligent|lower iq|low iq|mentally ill|not (?:even )?human|all the same|too many",
    "(?:are|is) behind (?:all )?(?:of )?(?:this|it|everything|the)",
    "(?:are|is) only good for|good for (?:nothing|one thing)",
    "(?:bring|brings|spread|spreads) (?:crime|disease|diseases|violence|drugs|filth)",
    "belongs? (?:in|at) (?:the )?(?:home|kitchen|sink)",
    "(?:deport|ban|expel|remove|kick out|get rid of|round up) (?:all|every|every last|the|these|those|each)",
    "can not (?:drive|think|be trusted|integrate|speak english)",
  ].join("|"),
);

/** Indexes of the tokens that name a group of people ("Muslims", "gay people", "the French"). */
function groupMentions(tokens: Token[]): number[] {
  const found: number[] = [];
  tokens.forEach((t, i) => {
    if (t.punct) return;
    // "your kind", "you people", "you lot": the reader's supposed group.
    const next = tokens[i + 1]?.text ?? "";
    if (
      (t.text === "your" && next === "kind") ||
      (SECOND_PERSON.has(t.text) && (next === "people" || next === "lot"))
    ) {
      found.push(i + 1);
      return;
    }
    if (GROUP_NOUNS.has(t.text)) {
      found.push(i);
      return;
    }
    if (!GROUP_ADJECTIVES.has(t.text)) return;
    const previous = tokens[i - 1]?.text ?? "";
    if (
      PEOPLE_WORDS.has(next) ||
      // "Polish builders", "Muslim men": a nationality or religion before a plural noun.
      (!BROAD_ADJECTIVES.has(t.text) && /^[a-z]{3,}s$/.test(next) && !WORD_KIND.has(next)) ||
      SMEAR_WORDS.has(next) ||
      DEHUMANISING_WORDS.has(next) ||
      WORD_KIND.get(next) === "slur" ||
      (previous === "the" && COPULAS.has(next)) ||
      /^(?:every|each|another|typical|bloody|filthy|dirty|last|single)$/.test(previous) ||
      (previous === "the" && /^(?:never|always|have|all|will|should|can|just)$/.test(next))
    ) {
      found.push(i);
    }
  });
  return found;
}

type IdentityHit = { from: number; to: number };

/** Identity attacks: sentences where a named group is dehumanised, smeared or met with a trope. */
export function identityAttacks(n: NormalisedText): IdentityHit[] {
  const { tokens } = n;
  const hits: IdentityHit[] = [];
  const groups = groupMentions(tokens);
  if (groups.length === 0) return hits;
  const negatedBefore = (i: number) =>
    [1, 2].some((d) => {
      const t = tokens[i - d];
      return t !== undefined && t.clause === tokens[i]!.clause && NEGATIONS.has(t.text);
    });
  const bySentence = tokensBySentence(tokens);
  const sympatheticSentences = new Set<number>();
  for (const [s, indexes] of bySentence) {
    if (indexes.some((i) => GROUP_SYMPATHY_WORDS.has(tokens[i]!.text))) sympatheticSentences.add(s);
  }
  const sympathetic = (s: number) => sympatheticSentences.has(s);
  const seenSentences = new Set<number>();

  for (const g of groups) {
    const s = tokens[g]!.sentence;
    if (sympathetic(s)) continue;
    const sentence = bySentence.get(s)!;
    const firstInSentence = !seenSentences.has(s);
    seenSentences.add(s);
    // Dehumanising words anywhere in the sentence (once per sentence).
    if (firstInSentence) {
      for (const i of sentence) {
        if (i !== g && DEHUMANISING_WORDS.has(tokens[i]!.text) && !negatedBefore(i)) {
          hits.push({ from: Math.min(g, i), to: Math.max(g, i) });
        }
      }
    }
    // Smears said of the group: "X are (all, just…) thieves", or right beside it ("thieving gypsies").
    for (let j = g + 1; j <= g + 4 && j < tokens.length && tokens[j]!.sentence === s; j += 1) {
      if (!COPULAS.has(tokens[j]!.text)) continue;
      for (let k = j + 1; k <= j + 5 && k < tokens.length && tokens[k]!.sentence === s; k += 1) {
        if (NEGATIONS.has(tokens[k]!.text)) break;
        const kind = WORD_KIND.get(tokens[k]!.text);
        if (SMEAR_WORDS.has(tokens[k]!.text) || DEHUMANISING_WORDS.has(tokens[k]!.text) || kind === "insult_noun") {
          hits.push({ from: g, to: k });
          break;
        }
      }
      break;
    }
    for (const d of [-1, 1, 2]) {
      const t = tokens[g + d];
      if (
        t &&
        t.sentence === s &&
        SMEAR_WORDS.has(t.text) &&
        !(d === 2 && !PEOPLE_WORDS.has(tokens[g + 1]?.text ?? ""))
      ) {
        hits.push({ from: Math.min(g, g + d), to: Math.max(g, g + d) });
      }
    }
    // Tropes in the sentence (once per sentence).
    if (!firstInSentence) continue;
    const start = n.offsets[sentence[0]!]!;
    const last = sentence[sentence.length - 1]!;
    const end = n.offsets[last]! + tokens[last]!.text.length;
    const text = n.canon.slice(start, end);
    for (const m of text.matchAll(GROUP_TROPES)) {
      const from = tokenAt(n, start + m.index);
      const to = tokenAt(n, start + m.index + m[0].length - 1);
      if (!negatedBefore(from)) hits.push({ from: Math.min(g, from), to: Math.max(g, to) });
    }
  }
  // "They're all thieves", "every last one of them…", once a group is named anywhere.
  tokens.forEach((t, i) => {
    if (t.text !== "they" && t.text !== "them") return;
    const window = tokens.slice(i + 1, i + 5).map((x) => x.text);
    const all =
      window.slice(0, 2).some((w) => /^(?:all|just|simply|basically|nothing|mostly)$/.test(w)) ||
      (t.text === "them" && tokens[i - 1]?.text === "of");
    if (!all) return;
    for (let k = i + 1; k <= i + 5 && k < tokens.length && tokens[k]!.sentence === t.sentence; k += 1) {
      if (NEGATIONS.has(tokens[k]!.text)) break;
      if (SMEAR_WORDS.has(tokens[k]!.text) || DEHUMANISING_WORDS.has(tokens[k]!.text)) {
        if (!sympathetic(t.sentence)) hits.push({ from: i, to: k });
        break;
      }
    }
  });
  return hits;
}

// ─── threats, by their parts ─────────────────────────────────────────────────────────────────

/** Verbs of violence (any form). */
const HARM_VERB =
  /^(?:kill|killed|killing|murder|murdered|stab|stabbed|stabbing|shoot|shooting|shot|strangle|strangled|choke|choked|rape|raped|hurt|hurting|harm|batter|battered|bash|bashed|beat|beaten|punch|punched|smash|smashed|knife|knifed|burn|burned|burnt|torch|torched|firebomb|petrol-bomb|bomb|bombed|hang|hanged|lynch|lynched|maim|maimed|attack|attacked|assault|slit|behead|beheaded|execute|executed|kneecap|drown|drowned|bury|buried|cut|slash|slashed|gut|gutted|waste|wasted|run|ran)$/;
/** Weapons. */
const WEAPON =
  /^(?:gun|guns|knife|knives|blade|blades|bullet|bullets|bomb|bombs|acid|petrol|machete|axe|bat|rope|noose|rifle|shotgun|pistol|crossbow|hammer)$/;
/** Who may be meant: the reader, someone named by a pronoun, or a person by role. */
const TARGET =
  /^(?:you|u|ya|your|ur|yourself|him|her|them|his|their|cyclist|cyclists|editor|reporter|journalist|journalists|judge|mp|councillor|writer|author|columnist|woman|man|guy|bloke|minister|mayor|politician|politicians|president|traitor|traitors|protesters|protestors|landlord|officer|cop|cops|neighbour|kid|kids|family|wife|husband|children|daughter|son)$/;
/** Subjects that carry intent ("I", "we", "someone") and the words that make it intent. */
const INTENT_SUBJECT = /^(?:i|we|ill|someone|somebody|anybody|anyone|people|us|they|imma)$/;
const INTENT_MODAL =
  /^(?:will|would|going|gonna|should|must|need|needs|ought|deserve|deserves|want|wanna|shall|gotta|got|could|let|plan|planning|intend|about)$/;
const INERT_OBJECT = /^(?:it|time|me|myself|the)$/;

/**
 * Threats found by their parts rather than their wording, in one sentence: someone who means it
 * ("I", "we", "someone"… with "will", "would", "should"…, or an order: "Stab him"), a verb of
 * violence, and a person after it ("you", "him", "that cyclist"); or a weapon beside a first
 * person and the reader ("I have a gun and I'm not afraid to use it on people like you").
 * "The heat will kill you" has no one who means it; "I could murder a curry" no person.
 */
export function threatsByParts(n: NormalisedText): IdentityHit[] {
  const { tokens } = n;
  const hits: IdentityHit[] = [];
  for (const all of tokensBySentence(tokens).values()) {
    const indexes = all.filter((i) => !tokens[i]!.punct);
    const words = indexes.map((i) => tokens[i]!.text);
    const negated = (k: number) => [k - 1, k - 2].some((j) => j >= 0 && NEGATIONS.has(words[j]!));
    words.forEach((word, k) => {
      if (!HARM_VERB.test(word) || negated(k)) return;
      // An order: the sentence (or its clause) starts with the verb ("Burn his house down").
      const first = indexes[k]!;
      const clauseStart = k === 0 || tokens[indexes[k - 1]!]!.clause !== tokens[first]!.clause;
      let intent = clauseStart && !/^(?:run|cut|waste|hang|beat|shot|attack|bomb)$/.test(word);
      for (let j = k - 1; j >= Math.max(0, k - 10) && !intent; j -= 1) {
        if (words[j] === "let" && words[j + 1] === "us") intent = true;
        if (!INTENT_MODAL.test(words[j]!)) continue;
        for (let m = j - 1; m >= Math.max(0, j - 3); m -= 1) if (INTENT_SUBJECT.test(words[m]!)) intent = true;
      }
      if (!intent) return;
      const after = words.slice(k + 1, k + 5);
      if (after.length === 0 || INERT_OBJECT.test(after[0]!)) return;
      const target = after.findIndex((w) => TARGET.test(w));
      if (target < 0) return;
      if (word === "run" && !after.slice(target).includes("over")) return;
      if (word === "cut" && !after.some((w) => /^(?:throat|throats|wrists|face)$/.test(w))) return;
      hits.push({ from: indexes[Math.max(0, k - 3)]!, to: indexes[k + 1 + target]! });
    });
    // A weapon beside someone who means it and a person: "I have a gun… people like you",
    // "somebody ought to teach that councillor some manners with a baseball bat".
    const weapon = words.findIndex(
      (w, k) =>
        WEAPON.test(w) &&
        /^(?:a|an|the|my|his|her|your|their|our|with|some|baseball|cricket|big|sharp|loaded|kitchen)$/.test(
          words[k - 1] ?? "",
        ),
    );
    if (weapon >= 0 && !words.slice(0, weapon).some((w) => NEGATIONS.has(w))) {
      const firstPerson = words.some((w) => w === "i" || w === "we" || w === "ill");
      const reader = words.some((w) => /^(?:you|u|your|ur)$/.test(w));
      const intent = words.some(
        (w, k) => INTENT_SUBJECT.test(w) && words.slice(k + 1, k + 3).some((m) => INTENT_MODAL.test(m)),
      );
      const person = words.some((w) => TARGET.test(w));
      if ((firstPerson && reader) || (intent && person))
        hits.push({ from: indexes[0]!, to: indexes[indexes.length - 1]! });
    }
  }
  return hits;
}
