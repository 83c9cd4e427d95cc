/**
 * The commonest function words of the Latin-script languages Masthead is written in, written for
 * Masthead from general knowledge of each language (articles, pronouns, prepositions,
 * conjunctions, the commonest verbs' forms). The detector (detect.ts) counts them to decide
 * whether a comment is English before it trusts the trigram detector's guess.
 */
import type { LatinLanguage } from "./languages.schema";

const LISTS: Record<LatinLanguage, string> = {
  en: `the of and to a in is it you that he was for on are with as i his they be at have this from or
    had by but not what all were we when your can said there an which she do their if will up about out
    then them these so some her would like him into has more no could my than been who its now me our
    just also how only any because those very should did us why here off get got go see way well
    think know people such really yeah stay im dont youre thats lol lmao`,
  es: `el la de que y en los se del las un por con no una su para es al lo como más pero sus le ya o
    este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos
    durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro
    otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo
    nosotros`,
  fr: `le la les de des du un une et est en que qui dans ce il elle ne pas pour sur au aux avec son sa
    ses par plus se on ou mais nous vous ils elles leur leurs cette ces été être avoir a ont fait comme
    tout très bien aussi je tu me te y lui où sont était`,
  de: `der die das und ist nicht ich sie es ein eine einen zu den mit von dem im auf für sich auch an
    wir aber als noch wie bei nach aus er so wird werden war sind hat haben kann nur oder wenn dass
    über vor schon mehr durch zum zur des einer eines man mein dir mir uns euch`,
  pt: `o a os as de do da dos das e é um uma em no na nos nas que não para com por se mais como mas ao
    aos à às seu sua seus suas ele ela eles elas foi ser está são também já muito quando isso esse
    essa este esta pelo pela me você nós tem ou`,
};

/** Each language's function words, lower case (NFC). */
export const STOP_WORDS: ReadonlyMap<LatinLanguage, ReadonlySet<string>> = new Map(
  (Object.entries(LISTS) as [LatinLanguage, string][]).map(([language, words]) => [
    language,
    new Set(words.normalize("NFC").split(/\s+/).filter(Boolean)),
  ]),
);

/**
 * Function words of Hindi written in Latin letters ("yeh kya hai", "mujhe nahi pata"), without
 * those that are also words of the languages above or of English ("to", "main", "par", "se", "na",
 * "log", "jab", "tab"): a Latin-script comment with at least two of them, and more of them than of
 * any other list, is read as Hindi.
 */
export const ROMANISED_HINDI_STOP_WORDS: ReadonlySet<string> = new Set(
  `hai hain nahi nahin nhi kya ki ke ka ko mein aur bhi yeh ye woh wo tum hum tha thi raha rahe rahi kuch
   bahut sab koi kyun kyon kaise apne apna apni uska unka mera meri tera teri bhai yaar abhi agar lekin
   sirf hota hoti karna karte kiya gaya diya wala wale wali mujhe tumhe humein kaha kyunki`
    .split(/\s+/)
    .filter(Boolean),
);
