/**
 * Suspect words shipped for the languages the built-in scorer does not read (docs/moderation.md,
 * "Languages"): the List of Dirty, Naughty, Obscene and Otherwise Bad Words (LDNOOBW, CC BY 4.0),
 * from the npm package `naughty-words`, for Spanish, French, German, Portuguese, Arabic and Hindi.
 * Hindi's list is written in Latin letters (romanised Hindi, as many readers type it): it matches
 * comments read as Hindi that are written in Latin letters (detect.ts reads romanised Hindi by its
 * function words). No Devanagari list and no Tamil list exist in the package: in those scripts only
 * the account's own words apply. English has none: the scorer reads English.
 *
 * The lists were made to keep words out of an image site's search suggestions, so they name much
 * that a news comment says in earnest. Words whose everyday meaning is innocent or newsworthy are
 * left out here (each with its meaning), and the rest act as the account chooses
 * (`languageWordLists`: flag, the default; hold; or off), matched as banned-words.ts matches.
 */
import ar from "naughty-words/ar.json";
import de from "naughty-words/de.json";
import es from "naughty-words/es.json";
import fr from "naughty-words/fr.json";
import hi from "naughty-words/hi.json";
import pt from "naughty-words/pt.json";

import { containsAnyWord } from "../rules/banned-words";
import type { CommentLanguage } from "./languages.schema";

/** Words of the package left out: their everyday meaning is innocent, or news reports them. */
const LEFT_OUT: ReadonlyMap<string, readonly string[]> = new Map([
  // murder, drugs, heroin/heroine, hell, hammer, racist, nazi, urine, trio, sex, sperm, vulva, semen,
  // damned, fart (and Mexican "what's up"), pee, prostitute, transvestite, nipple, shell, firm/solid,
  // making love, coprophagy, sadistic, donkey, poo
  [
    "es",
    `asesinato drogas heroína infierno martillo racista nazi orina trio sexo esperma vulva semen maldito pedo
     pis prostituta travesti pezón concha maciza haciendo el amor coprofagía sádico asno caca`.split(/\s+/),
  ],
  // abortion, amateur, spider, Aryan/Aries, bisexual, donkey, beer, cocaine, eat, consolation, faecal,
  // roast chicken, heroin, heterosexual, gay man, homoerotic, homosexual, hell, lesbian, lolita, breast/mum,
  // stick, chick, bag, tap, vibrator, condom, bum, suck (an orange), enjoy, grill, pass a cheque, fart,
  // penis, clitoris, intercourse, anus
  [
    "pt",
    `aborto amador aranha ariano bissexual burro cerveja cocaína comer consolo fecal frango assado heroína
     heterosexual homem gay homoerótico homosexual inferno lésbica lolita mama pau pinto saco torneira
     vibrador camisinha bumbum chupar gozar grelho passar um cheque peidar pênis clitoris coito ânus`.split(/\s+/),
  ],
  // kiss, brothel/mess, drunk (and a dance), poo, clitoris, crazy (f.), sheaf/wreath, mouth, enjoy,
  // threesome, woman (slang), wee, fart/break, sucks, tench, to fool around
  [
    "fr",
    `baiser bordel bourré bourrée caca clitoris folle gerbe gueule jouir ménage à trois meuf pipi péter suce
     tanche déconne déconner`.split(/\s+/),
  ],
  // bigwig, mufti, naked, penis, orgasm, nipple, booger, rosette, notch, grimace, pee, to happen
  // (Bavarian), birds (dative plural, "Vögeln")
  ["de", "bonze mufti nackt penis orgasmus nippel popel rosette kimme fratze pinkeln schnackeln vögeln".split(/\s+/)],
  // desire, breast, intercourse, rape, wet dream, lick (two words), suck (two), anus, vulva (also
  // the name Faraj and "relief"), irregular, exchanger, eggs, nipple, rod/rail, lesbian(ism),
  // sodomy (a legal term), lioness, clitoris
  [
    "ar",
    "شهوة ثدي جماع اغتصاب احتلام لعق لحس مص تمص شرج فرج شاذ مبادل بيضان حلمة قضيب سحاق سحاقية لواط لبوة بظر".split(
      /\s+/,
    ),
  ],
  // rape (news), rapist, illegal/illegitimate, goods, dog, pig, lust, firecracker (two spellings),
  // brother-in-law, sixes (cricket), leave ("chod do"), Lund (a Swedish town), transgender community (two)
  [
    "hi",
    "balatkar balatkari najayaz maal kutta suar hawas pataka patakha saala chakke chod lund hijra hijda".split(/\s+/),
  ],
]);

/** Multi-word entries of LEFT_OUT are written with spaces: rejoin those the split cut apart. */
function leftOut(language: string, words: readonly string[]): (word: string) => boolean {
  const out = new Set((LEFT_OUT.get(language) ?? []).map((w) => w.toLowerCase()));
  const phrases = words.map((w) => w.toLowerCase().trim()).filter((w) => w.includes(" "));
  return (word: string) => {
    const lower = word.toLowerCase().trim();
    if (out.has(lower)) return true;
    // A phrase is left out when all its words are in the list of a left-out phrase ("haciendo el amor").
    return phrases.includes(lower) && lower.split(" ").every((part) => out.has(part));
  };
}

function shipped(language: string, words: readonly string[]): readonly string[] {
  const isLeftOut = leftOut(language, words);
  return words.map((w) => w.trim()).filter((w) => w !== "" && !isLeftOut(w));
}

/** The shipped lists by the language of the comments they are read in (Hindi's is romanised). */
export const SHIPPED_WORDS: ReadonlyMap<CommentLanguage, readonly string[]> = new Map<
  CommentLanguage,
  readonly string[]
>([
  ["es", shipped("es", es)],
  ["fr", shipped("fr", fr)],
  ["de", shipped("de", de)],
  ["pt", shipped("pt", pt)],
  ["ar", shipped("ar", ar)],
  ["hi", shipped("hi", hi)],
]);

/** Whether the comment holds a word of the shipped list of the language it is read as. */
export function hasShippedWord(text: string, language: CommentLanguage | null): boolean {
  const list = language === null ? undefined : SHIPPED_WORDS.get(language);
  return list !== undefined && containsAnyWord(text, list);
}
