/**
 * The lexicon scorer's word lists, by kind (docs/moderation.md, "The scorer"). Words are written
 * as the normaliser leaves them (text-normalise.ts): lower case, accents removed, no leetspeak, no
 * stretched letters. A word is matched as a whole token, never inside another word, so
 * "Scunthorpe", "cocktail", "assassin", "Dickens" and "grapes" need no exceptions.
 *
 * Written for Masthead from general knowledge of abusive language; no comment of the labelled
 * corpus is copied here.
 */

/** What a word is; the scorer gives each kind its weight and its rule for being aimed at someone. */
export type WordKind =
  /** A slur against a group (race, religion, sexuality, disability): identity attack. */
  | "slur"
  /** A vulgar word for a person ("twat", "arsehole"): an insult and an obscenity at once. */
  | "vulgar_noun"
  /** Strong profanity used any way ("fuck", "bitch"). */
  | "strong"
  /** Strong profanity as an intensifier ("fucking", "bloody"): never aims by itself. */
  | "intensifier"
  /** Mild profanity ("shit", "piss", "crap"). */
  | "mild"
  /** Explicit sexual terms. */
  | "sexual"
  /** Anatomical or clinical words a news comment may use in earnest ("rape", "sex"). */
  | "clinical"
  /** Insult nouns ("idiot", "moron"). */
  | "insult_noun"
  /** Nouns that insult only when aimed at someone ("pig", "sheep", "hack", "clown"… of a person). */
  | "aimed_noun"
  /** Nouns that insult only when said to the reader ("you are a joke"; "this is a joke" is not). */
  | "you_noun"
  /** Insulting adjectives ("stupid", "pathetic"): also said of ideas, so weaker. */
  | "adjective"
  /** Adjectives that insult only when said to the reader ("you are so thick"; "thick fog" is not). */
  | "you_adjective";

/** Inflections of a list of stems: each stem, +s, and the extra forms written after a colon. */
function forms(spec: string): string[] {
  const out: string[] = [];
  for (const entry of spec.split(/\s+/).filter(Boolean)) {
    const [stem, extra] = entry.split(":") as [string, string | undefined];
    out.push(stem);
    for (const suffix of (extra ?? "s").split(",").filter(Boolean)) {
      const word = suffix.startsWith("=") ? suffix.slice(1) : stem + suffix;
      if (word) out.push(word);
    }
  }
  return out;
}

const KIND_WORDS: Record<WordKind, string[]> = {
  slur: forms(`
    nigger nigga niggaz:= nigguh negroid:= coon jigaboo sambo:= spic:s wetback beaner
    chink gook:s jap:s chinaman:=chinamen paki:s raghead towelhead sandnigger cameljockey
    kike:s yid:s heeb:s hebe:s zog:= muzzie:s muzzy:=muzzies moslem:s mozlem:s
    faggot:s,=faggy fag:s,=fagg,=faggit,=faggits poof:s,=poofter,=poofters
    tranny:=trannies,=trannie shemale:s troon:s
    retard:s,ed,=tard,=tards spastic:s,=spaz,=spazz mongoloid:s
    gyppo:s pikey:s kaffir:s abo:s abbo:s gypo:s wog:s golliwog:s dago:s wop:s polack:s kraut:s
  `),
  vulgar_noun: forms(`
    cunt twat asshole arsehole arshole:= ahole:s assclown asshat asswipe dickhead dickwad dickface knobhead
    knobend bellend tosser wanker shithead shitstain dipshit fuckwit fuckface fucktard motherfucker
    motherfucka:= cocksucker douchebag douche prick scrote
    arschloch:=arschlocher wichser:= hurensohn:=hurensohne missgeburt:en connard:s connasse:s
    salope:s enfoire:s pendejo:s gilipollas:= cabron:es culero:s
  `),
  strong: forms(`
    fuck:s,ed,er,ers,ery fck:s,ed fcuk:s,ed fuk:s,ed fvck:s,ed phuck:s,ed fuq:=
    motherfucking:= bitch:es,y,ing bastard whore:s slut:s,ty cock dick pussy:=pussies wank:s,ed,ing
    jizz:= cuck:s puta:s foutre:= ficken:=
  `),
  intensifier: forms(`
    fucking:= fuckin:= fcking:= fkn:= fking:= fukin:= fuking:= fvcking:= fcuking:= phucking:= effing:=
    motherfuckin:=
  `),
  mild: forms(`
    shit:s,e,ty,ted,ting,=bullshit,=horseshit,=apeshit,=batshit ass:=arse,=arses,=asses piss:ed,es,ing
    crap:s,py bollocks:= bugger:s,ed damn:ed,it,=dammit turd:s sod:= scheisse:=scheiss,=scheise
    merde:s mierda:= cazzo:= bloody:= goddamn:=goddam,=goddamned sodding:=
  `),
  sexual: forms(`
    blowjob handjob dildo porn:o,ography gangbang fisting:= felch fellatio:= deepthroat doggystyle:=
    hentai:= buttplug bestiality:= masturbate:=masturbating,=masturbation ejaculate:=ejaculating orgy:=orgies
    cum:=cumming,=cumshot,=cumshots jizzed:= rimjob shag:s,ged,ging
  `),
  clinical: forms(`
    anal:= anus:= boob:s tit:s penis:=penises vagina:s sex:= semen:= orgasm:s rape:d,s,=raping,=rapist,=rapists
    incest:= hooker:s genitals:= nude:s
  `),
  insult_noun: forms(`
    idiot moron imbecile cretin loser scum:=scumbags,=scumbag dumbass:=dumbasses jackass:=jackasses
    halfwit dimwit nitwit numpty:=numpties pillock lowlife:=lowlifes,=lowlives degenerate parasite
    libtard leftard retardo:= fool buffoon twit prat plonker muppet dunce dolt oaf nincompoop airhead
    bonehead meathead boneheads:= simpleton neanderthal troglodyte knuckledragger mouthbreather
    nonce paedo:s pedo:s pervert perv:s,=pervs creep weirdo:s psycho:s nutter nutjob lunatic
    incel simp:s bimbo:s slag:s skank:s harlot:s hag:s windbag gasbag blowhard bozo goon dipstick
    doofus twerp berk numbskull pinhead dingbat nutcase crackpot grifter charlatan saddo wazzock
    cockwomble dumbo knobjockey gobshite arsewipe ballbag nincompoops:= imbeciles:= fatso:s,=fatties,=fatty
    idiota:s imbecil:es estupido:s,=estupida,=estupidas tonto:s,=tonta,=tontas abruti:s,e,es debile:s
    trottel:= versager:= vollidiot:en dummkopf:=dummkopfe idiotin:=idiotinnen
  `),
  aimed_noun: forms(`
    clown pig cow sheep rat snake weasel worm cockroach creature animal ape monkey donkey
    troll hack shill snowflake karen:s nazi:s chump dyke:s homo:s cripple:s tool plank mug wally
    knob nob melt gimp turnip gremlin goblin leech walnut spanner melon nugget cabbage lettuce
  `),
  you_noun: forms(`
    joke disgrace:= embarrassment:= failure:= fraud liar hypocrite coward bigot virgin:= waste:=
  `),
  adjective: forms(`
    stupid:=stupider,=stupidest dumb:=dumber,=dumbest pathetic:= worthless:= brainless:= braindead:=
    ignorant:=ignorantest useless:=uselessest disgusting:= vile:=vilest moronic:= idiotic:= clueless:=
    spineless:= gutless:= dimwitted:= halfwitted:= imbecilic:= cretinous:= dopey:= daft:=daftest
    spiteful:= vindictive:= horrid:= pompous:= sanctimonious:= insufferable:= pitiful:= deceitful:=
    twofaced:= creepy:= sleazy:= slimy:= cowardly:= feeble:=feeblest repugnant:= odious:= wretched:=
    soulless:= heartless:= wicked:= psychotic:= hideous:= smelly:= greasy:= inbred:= mindless:=
    gobby:= whiny:= whinging:= snivelling:=
    repulsive:= revolting:= deluded:= delusional:= senile:= gormless:= witless:= talentless:=
    washedup:= filthy:= despicable:= contemptible:= loathsome:= hateful:= lowiq:= demented:= scummy:=
    dumm:=dummer,=dumme,=dummes,=blod,=blode,=bloder stupide:s debil:= ignorante:s
  `),
  you_adjective: forms(`
    thick:=thicker,=thickest dense:=denser,=densest ugly:=uglier,=ugliest fat:=fatter,=fattest
    miserable:= bitter:= smug:= uneducated:= illiterate:= mental:= trashy:= grotesque:= obnoxious:=
    sad:=saddest small:= insignificant:= irrelevant:= unhinged:= slow:=slower,=slowest dim:=dimmest
    weak:=weakest gullible:= naive:= brainwashed:= deranged:= sick:=sickest twisted:= nasty:=nastiest
    toxic:= laughable:= bitchy:=
  `),
};

/** Every word of the lists and its kind (a word in two lists keeps the first kind listed above). */
export const WORD_KIND: ReadonlyMap<string, WordKind> = (() => {
  const map = new Map<string, WordKind>();
  for (const [kind, words] of Object.entries(KIND_WORDS) as [WordKind, string[]][]) {
    for (const word of words) if (!map.has(word)) map.set(word, kind);
  }
  return map;
})();

/**
 * Groups of people an identity attack is aimed at: plural nouns that name people by religion,
 * origin, sexuality, sex, disability or age. Never an insult by themselves: "As a Muslim…",
 * "Immigrants built half the NHS" are ordinary.
 */
export const GROUP_NOUNS: ReadonlySet<string> = new Set(
  forms(`
    muslims:= moslems:= jews:= christians:= catholics:= protestants:= hindus:= sikhs:= buddhists:=
    atheists:= mormons:= immigrants:= migrants:= refugees:= foreigners:= illegals:= blacks:= whites:=
    asians:= africans:= arabs:= mexicans:= indians:= pakistanis:= bangladeshis:= poles:= romanians:=
    bulgarians:= roma:= gypsies:= gipsies:= brits:= germans:= italians:= spaniards:= somalis:=
    nigerians:= ukrainians:= russians:= americans:= yanks:= latinos:= hispanics:= turks:= kurds:=
    afghans:= syrians:= albanians:= eritreans:= gays:= lesbians:= bisexuals:= transgenders:=
    transsexuals:= queers:= homosexuals:= women:= females:= ladies:= feminists:= pensioners:=
    musulmanes:= musulmans:= muslime:= inmigrantes:= immigres:= immigranten:= migranten:= fluchtlinge:=
    auslander:= etrangers:= extranjeros:= juifs:= juden:= judios:= gitanos:= refugies:= refugiados:=
    arabes:= noirs:= negros:= mujeres:= femmes:= frauen:= islam:= judaism:= hinduism:= sikhism:= mosques:=
  `),
);

/**
 * Adjectives that name a group when said of people: followed by a word of PEOPLE_WORDS ("gay
 * people"), after "the" ("the French are…"), or right before a smear ("disabled scroungers").
 */
export const GROUP_ADJECTIVES: ReadonlySet<string> = new Set(
  forms(`
    muslim:= jewish:= christian:= catholic:= hindu:= sikh:= immigrant:= migrant:= asylum:= black:=
    white:= asian:= african:= arab:= chinese:= indian:= pakistani:= polish:= irish:= scottish:= welsh:=
    english:= french:= german:= italian:= somali:= nigerian:= ukrainian:= russian:= american:=
    gay:= lesbian:= bisexual:= trans:= transgender:= lgbt:= lgbtq:= disabled:= handicapped:=
    autistic:= old:= elderly:= jew:= woman:=
  `),
);

/** Nouns that, after a group adjective, make it a group of people ("gay people", "old folk"). */
export const PEOPLE_WORDS: ReadonlySet<string> = new Set(
  forms(
    "people:= folk:s men:= persons:= seekers:= driver:= drivers:= lot:= community:= communities:= population:= lives:=",
  ),
);

/**
 * Words that dehumanise ("vermin", "a plague"): said anywhere in a sentence that names a group,
 * that sentence is an identity attack.
 */
export const DEHUMANISING_WORDS: ReadonlySet<string> = new Set(
  forms(`
    vermin:= rats:= cockroaches:= roaches:= insects:= parasites:= parasite:= leeches:= plague:=
    cancer:= infestation:= filth:= filthy:= savages:= subhuman:= animals:= pests:= swarm:= swarming:=
    invaders:= invasion:= invading:= invade:= locusts:= hordes:= swarms:= nazis:= disease:= diseases:=
    lice:= maggots:= apes:= monkeys:= cockroach:= parasitic:=
    parasitos:= ratas:= animales:= vermine:= cafards:= parasiten:= ratten:= ungeziefer:= tiere:=
  `),
);

/**
 * Words that smear every member of a group ("criminals", "lazy"): an identity attack when a group
 * is said to be them ("X are…", "they're all…") or when they stand right beside the group's name.
 */
export const SMEAR_WORDS: ReadonlySet<string> = new Set(
  forms(`
    criminals:= criminal:= thieves:= thief:= rapists:= rapist:= terrorists:= terrorist:= predators:=
    predator:= paedophiles:= paedophile:= pedophiles:= paedos:= paedo:= smell:= smells:= smelly:=
    stinks:= mules:= dealers:= gangsters:= thugs:= thug:= leeches:= freeloaders:= bludgers:=
    pickpockets:= scammers:= crooks:= stain:= blight:= disgrace:= vermin:= breeding:= liars:= liar:= cheat:= cheats:= scrounger:= groomers:= menace:=
    groomers:= perverts:= freaks:= inferior:= lazy:= drunks:= alcoholics:= liars:= cowards:=
    beggars:= scroungers:= spongers:= drain:= burden:= hags:= greedy:= brainwashed:= bigots:=
    degenerates:= abominations:= abomination:= unnatural:= backward:= primitive:= uncivilised:=
    uncivilized:= dogs:= pigs:= snakes:= useless:= worthless:= stupid:= thick:= idiots:= morons:=
    retards:= deviants:= dirty:= stink:= stinking:= thieving:= trash:= garbage:= untrustworthy:=
    treacherous:= traitors:= scum:= evil:= barbarians:= barbaric:= criminales:= ladrones:= voleurs:=
    verbrecher:= dangerous:= violent:= sick:= emotional:= hysterical:= irrational:= weak:= dumb:=
    ignorant:= vile:= disgusting:= filthy:= dishonest:= sneaky:= cheats:= frauds:= fraudsters:=
  `),
);

/** Words that make a sentence about a group sympathetic or reported, not an attack. */
export const GROUP_SYMPATHY_WORDS: ReadonlySet<string> = new Set(
  forms(`
    victims:= victim:= targeted:= attacked:= abused:= discriminated:= discrimination:= persecuted:=
    persecution:= suffer:= suffering:= vulnerable:= disproportionately:= racism:= racist:= prejudice:=
    stereotype:s myth:s trope:s bigotry:= hatred:= islamophobia:= antisemitism:= homophobia:=
    transphobia:= misogyny:= xenophobia:= smear:s demonised:= demonized:= scapegoated:= scapegoat:s
  `),
);

/**
 * Words used to find a second person: the reader replied to or the author. "your" is left out of
 * aiming ("your argument is stupid" is about the argument) and used by the patterns instead.
 */
export const SECOND_PERSON: ReadonlySet<string> = new Set([
  "you",
  "u",
  "ya",
  "ye",
  "yall",
  "youse",
  "yourself",
  "yourselves",
  "urself",
  "thou",
  "du",
  "dich",
  "tu",
  "toi",
  "te",
  "eres",
  "usted",
]);

/**
 * Little words of the patterns, kept as written when a stretched or disguised word is read
 * ("soooo" → "so", "y0u" → "you").
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `a an and are as at be but by do for go going got have he her him his how i if in is it its me my
  no not of off on or our out over she so such that the their them then there they this those to too
  up us was we were what when where who why will with would you your yours yourself u ur all kill
  die dead end hope shut get back hang shoot burn hell well full sell call tell fall still good
  look see need feel keep free money cheap off too been seen soon loan loans`.split(/\s+/),
);
