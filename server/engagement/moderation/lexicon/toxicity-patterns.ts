/**
 * The toxicity patterns over the normalised text (./toxicity-rules.ts): threats, incitement,
 * self-harm incitement, dismissals and the rest, each with its kind, weight and reason; negations.
 */
import { ownValue } from "@/server/own-keys";

import { type ToxicCategory } from "../scorer/scorer";
import { type Token } from "./text-normalise";
import { type WeightName } from "./toxicity-weights";

// ─── patterns ────────────────────────────────────────────────────────────────────────────────

const MACROS: Record<string, string> = {
  you: "(?:you|u|ya|ye|yall)",
  your: "(?:your|ur|yer)",
  self: "(?:yourself|yourselves|urself|ur self|your self|yoself|thyself)",
  w: "[^ .,!?;:=]+",
  victim: "(?:you|u|ya|your|ur|yours|him|her|them|his|their|ya)",
  third: "(?:him|her|them|his|their|the lot|that [^ .,!?;:=]+|those [^ .,!?;:=]+)",
  willdo: "(?:will|shall|would|could|might|am going to|are going to|going to|want to|am about to|will be|am coming to)",
  violent:
    "(?:kill|murder|stab|shoot|strangle|choke|rape|hurt|batter|bash|knife|smash|break|beat|punch|kick|slap|burn|torch|bury|cut|slit|gut|skin|hang|lynch|maim|cripple|run)",
  pursue: "(?:end|find|get|hunt|track|visit|destroy|ruin|come for|come after|deal with|sort)",
  start: "(?:^|[.,!?;:] )",
  people:
    "(?:bankers|politicians|traitors|tories|liberals|lefties|leftists|immigrants|migrants|refugees|muslims|jews|gays|protesters|protestors|journalists|reporters|judges|mps|councillors|landlords|elites|rich|paedos|nonces|police|cops|pigs|invaders|foreigners|scum|vermin|cabinet|government|whole lot)",
};

/** A pattern over the normalised text: words separated by single spaces, punctuation as words. */
export function rx(source: string): RegExp {
  const expanded = source.replace(/\{(\w+)\}/g, (_, name: string) => {
    const macro = ownValue(MACROS, name);
    if (macro === undefined) throw new Error(`unknown macro ${name}`);
    return macro;
  });
  return new RegExp(`(?<![^ ])(?:${expanded})(?![^ ])`, "g");
}

type PatternKind = "threat" | "self_harm" | "dismissal" | "insult_phrase" | "vulgar_phrase" | "identity_trope";

type Pattern = {
  name: string;
  kind: PatternKind;
  re: RegExp;
  /** A negation just before or inside the match cancels it ("I would never hurt you"). */
  negatable?: boolean;
};

export const PATTERN_KIND: Record<PatternKind, { weight: WeightName; category: ToxicCategory; reason: string }> = {
  threat: { weight: "threat", category: "threat", reason: "toxicity.threat" },
  self_harm: { weight: "selfHarm", category: "self_harm_incitement", reason: "toxicity.self_harm" },
  dismissal: { weight: "insult", category: "insult", reason: "toxicity.insult" },
  insult_phrase: { weight: "insult", category: "insult", reason: "toxicity.insult" },
  vulgar_phrase: { weight: "vulgarInsult", category: "insult", reason: "toxicity.insult" },
  identity_trope: { weight: "identityAttack", category: "identity_attack", reason: "toxicity.identity_attack" },
};

const p = (kind: PatternKind, name: string, source: string, negatable = true): Pattern => ({
  kind,
  name,
  re: rx(source),
  negatable,
});

export const PATTERNS: Pattern[] = [
  // ── threats: intent ──
  p("threat", "intent", "(?:i|we|ill) (?:{w} )?{willdo} (?:{w} ){0,2}?{violent} (?:{w} ){0,3}?{victim}"),
  p(
    "threat",
    "intent",
    "(?:i|we|ill) (?:{w} )?{willdo} (?:{w} ){0,2}?{violent} (?:{w} ){0,3}?(?:face|head|teeth|skull) of yours",
  ),
  p("threat", "intent", "(?:i|we|ill) (?:{w} )?{willdo} (?:{w} ){0,3}?{pursue} (?:{w} ){0,1}?(?:you|u|ya|your|ur)"),
  p("threat", "intent", "ill (?:{w} ){0,1}?(?:{violent}|{pursue}) (?:{w} ){0,1}?{victim}"),
  p(
    "threat",
    "intent",
    "{start}(?:going to|will|shall) (?:{w} ){0,2}?(?:{violent}|{pursue}) (?:{w} ){0,1}?(?:you|u|ya|your|ur)",
  ),
  p(
    "threat",
    "body",
    "(?:smash|break|snap|cave|kick|punch|stab|slit|cut|bash|beat|knock|rip|tear|burn|shoot|blow) (?:{w} ){0,2}?(?:your|ur|his|her|their) (?:{w} ){0,2}?(?:face|faces|head|heads|skull|teeth|jaw|legs|arms|neck|throat|nose|kneecaps|spine|brains?|house|home|car|door|windows)",
  ),
  p(
    "threat",
    "foreign",
    "(?:je vais te|on va te) (?:tuer|buter|crever|defoncer|retrouver)|te (?:voy a|vamos a) (?:matar|encontrar)|te mato|ich (?:bring|werde) dich (?:{w} ){0,2}?(?:um|umbringen|toten|finden)|ti ammazzo",
  ),
  // ── threats: intimidation ──
  p("threat", "know_where", "(?:i|we|they) (?:{w} )?know (?:exactly )?where {you} (?:live|work|sleep|are|park)"),
  p(
    "threat",
    "know_where",
    "know where {your} (?:kids|children|family|wife|husband|mum|mother|dad|parents|daughter|son) (?:go|live|are|sleep|play|work)",
  ),
  p(
    "threat",
    "know_where",
    "(?:i|we) (?:{w} )?know (?:which|what) (?:office|school|house|street|building|desk|car|gym|pub)",
  ),
  p(
    "threat",
    "know_where",
    "(?:wir wissen|ich weiss|ich weis)(?: ,)? (?:genau )?wo du (?:wohnst|lebst|arbeitest)|(?:sabemos|se) donde (?:vives|trabajas)|(?:on sait|je sais|nous savons) ou tu (?:habites|vis|travailles)",
  ),
  p("threat", "address", "{your} (?:home )?address (?:is not|is) (?:hard|difficult|easy|not hard) to find", false),
  p(
    "threat",
    "address",
    "(?:i|we) (?:have|got|found) {your} (?:home )?(?:address|name and|photo|location|number plate)",
  ),
  p("threat", "address", "{your} (?:kids|children) go to (?:the|that) (?:{w} )?school"),
  p(
    "threat",
    "watch",
    "watch {your} back|(?:we are|i am|they are) coming for {you}|{you} (?:will|are going to) (?:pay for this|regret this|regret it|be sorry)|pay {you} a (?:little )?visit|your days are numbered",
  ),
  p(
    "threat",
    "watch",
    "(?:i|we) will find {you}|(?:i|we) will be waiting|{you} (?:are|is) (?:dead|a dead man|a dead woman|finished|done for)(?= [.,!?;:]| *$)",
  ),
  p(
    "threat",
    "shame_if",
    "(?:shame|pity) if (?:{w} ){0,4}?(?:happened|happen|broke|broken|burned|burnt|burn|hurt|fire|missing|accident)",
  ),
  p(
    "threat",
    "lesson",
    "(?:taught|teach|teaching) (?:{w} )?a lesson (?:{w} )?(?:will not|would not|never) forget|needs? to be taught a lesson",
  ),
  p(
    "threat",
    "someone_will",
    "(?:someone|somebody) (?:will|is going to|gonna) (?:{w} ){0,2}?(?:see to it|pay {you}|find {you}|visit|deal with|hurt|get {you}|come for|make (?:him|her|them|you) pay)",
  ),
  p("threat", "disappear", "made to disappear|disappear (?:him|her|them)"),
  p(
    "threat",
    "know_your",
    "(?:i|we|they) (?:{w} )?(?:know|have|found|got|seen) {your} (?:car|route|address|home address|kids|children|routine|schedule|school|workplace|number plate|reg|daily routine|movements)",
  ),
  p(
    "threat",
    "planned",
    "what (?:i|we) (?:have|got) (?:planned|in store|coming) for (?:you|u)|wait (?:till|until) (?:i|we) (?:get|catch|find|see) (?:you|u|him|her)|(?:one of these days|sooner or later) (?:{w} ){0,3}?(?:you|u|he|she|they) (?:will|are going to)",
  ),
  p(
    "threat",
    "will_hang",
    "(?:traitors|they|he|she|them|you|u|{people}) (?:will|shall|should|must|are going to|going to|need to) (?:all |soon |one day )?(?:hang|swing|bleed)(?= [.,!?;:]| *$| for| one| from)",
  ),
  p(
    "threat",
    "burn_down",
    "burn (?:{w} ){0,3}?(?:down|to the ground)|(?:raze|torch) (?:{w} ){0,2}?(?:place|house|home|office|building|mosque|church|synagogue|temple|hotel|shop|school)",
  ),
  p("threat", "never_again", "(?:never|not) (?:walk|talk|see|write|work|type|speak) (?:straight )?again", false),
  p("threat", "lock_doors", "(?:better|should|had better|would better) (?:lock|bolt) {your} (?:doors|door|windows)"),
  p(
    "threat",
    "visit",
    "(?:needs?|deserves?|could use|is due|are due|getting|get) a (?:little |friendly |proper )?visit(?= [.,!?;:]| *$| from)",
  ),
  p(
    "threat",
    "weapon_in",
    "(?:knife|bullet|blade|brick|bat|boot|fist|axe|hammer|screwdriver) (?:in|to|through|into|between|across) {your} (?:{w} )?(?:head|face|ribs|back|gut|chest|neck|skull|eyes|teeth|throat|heart|belly|stomach|legs|kneecaps)|(?:knife|bullet|blade|brick|bat|axe|hammer) (?:in|to|through|into|between|across) (?:his|her|their) (?:{w} )?(?:head|face|ribs|back|gut|chest|neck|skull|eyes|teeth|throat|heart)",
  ),
  p("threat", "wall", "(?:line|put|stand) (?:{w} ){0,3}?(?:up )?against (?:a|the) wall"),
  p("threat", "my_face", "say (?:that|it) to my face|(?:and|then) see what happens(?= [.,!?;:]| *$)"),
  p(
    "threat",
    "find_out",
    "(?:you|u) (?:will|are going to) find out what happens|find out what happens to (?:people like )?(?:you|u|those who|anyone who)",
  ),
  p(
    "threat",
    "at_your_door",
    "(?:i am|i will be|we are|we will be|they are|someone is|someone will be|i will|we will) (?:{w} ){0,2}?(?:coming|come|going|standing|waiting|turning up|showing up|be|outside|at) (?:{w} ){0,1}?(?:to|round|at|outside|by|near) {your} (?:front )?(?:house|home|door|doorstep|office|work|workplace|school|flat|window|car)",
  ),
  p(
    "threat",
    "at_your_door",
    "(?:standing|waiting|parked|be|am|are) (?:outside|at|by) {your} (?:front )?(?:house|home|door|doorstep|window|office|flat)",
  ),
  p(
    "threat",
    "make_sure",
    "(?:i|we|ill) (?:will |am going to |are going to )?make sure (?:you|u) (?:never|regret|pay|do not|will not|can not|lose|suffer)",
    false,
  ),
  p("threat", "ground", "(?:put|puts|putting) (?:{w} ){0,2}?in the ground|six feet under"),
  p(
    "threat",
    "coming_to",
    "(?:gets?|got|get) what is coming to (?:you|u|them|him|her)|what is coming to (?:you|u)(?= [.,!?;:]| *$)",
  ),
  p("threat", "see_it_coming", "(?:you|u) (?:will not|would not|never) see it coming", false),
  p(
    "threat",
    "watch_yourself",
    "(?:better|should|had better|would better) watch (?:{self}|{your} (?:back|step|mouth))",
  ),
  p(
    "threat",
    "warning",
    "(?:this is your|last|final) warning|{you} (?:have|have been) been warned|will not be a warning",
  ),
  // ── incitement ──
  p(
    "threat",
    "incite",
    "(?:someone|somebody|anybody|anyone) (?:{w} ){0,2}?(?:kill|shoot|stab|hang|lynch|burn|torch|bomb|firebomb|beat|attack|assault|string up|take (?:him|her|them) out|finish (?:the job|him|her|them)|put a bullet|run (?:{w} ){0,2}?over|deal with (?:him|her|them)|punch|teach (?:him|her|them) a lesson|give (?:him|her|them|that {w}) what)",
  ),
  p(
    "threat",
    "incite",
    "(?:we|you|they|people|somebody|someone) (?:should|must|need to|needs to|ought to|have to|has to|got to) (?:{w} ){0,2}?(?:kill|shoot|hang|lynch|string up|burn|torch|bomb|exterminate|execute|gas|round up|stab) (?:{w} ){0,2}?(?:them|him|her|the lot|all|every|those|these)",
  ),
  p(
    "threat",
    "should_be",
    "(?:should|must|need to|needs to|ought to|deserves? to|deserve to|have to|has to|want to|wants to|to) be (?:{w} ){0,2}?(?:shot|hanged|hung from|lynched|killed|executed|strung up|beaten|dragged|burned|burnt|gassed|stoned|exterminated|eradicated|wiped out|murdered|raped|tortured|culled|taken out|put against a wall|lined up and|shot dead|bombed|knifed|stabbed|beheaded|hung|hunted|hunted down|run over|attacked|hurt|harmed|maimed)",
  ),
  p(
    "threat",
    "deserves",
    "deserves? (?:a|the) (?:{w} )?(?:bullet|brick|beating|kicking|noose|rope|hiding|knife)|(?:a|the) (?:good|proper|sound) (?:beating|kicking|hiding)|deserves? to (?:die|suffer|rot|burn|hang)",
  ),
  p("threat", "should_die", "(?:should|must|ought to|needs? to|deserves? to) (?:die|hang|burn|rot)(?= [.,!?;:]| *$)"),
  p(
    "threat",
    "bullet",
    "(?:put|puts|putting) a bullet (?:in|through|between)|bullet (?:in|through|to) (?:his|her|their|your|the) (?:head|brain|skull|face)|(?:get|gets|getting|got|deserves?) a bullet",
  ),
  p(
    "threat",
    "death_wish",
    "hope (?:{w} )?(?:you|u|he|she|they|him|her|them|someone|somebody|ur|your|that {w}|the {w}) (?:{w} ){0,4}?(?:die|dies|dying|get cancer|gets cancer|rot|rots|burn|burns|suffers?|gets? hit by|gets? shot|gets? raped|drowns?|chokes?|croaks?|bullet|kills?|shoots?|stabs?)",
  ),
  p(
    "threat",
    "death_wish",
    "ojala (?:te|se) (?:pudras|mueras|muera|pudra)|(?:ich hoffe|hoffentlich) (?:du|er|sie) (?:stirbst|stirbt|verreckst|verreckt)|espere que tu (?:meurs|creves)|va crever|verreck",
  ),
  p(
    "threat",
    "mass_violence",
    "{start}(?:just |now |let us |lets |and )?(?:hang|shoot|kill|gas|burn|torch|firebomb|stab|lynch|string up|round up|exterminate|execute|nuke|bomb|sink|drown|hunt down) (?:{w} ){0,3}?(?:them|him|her|the lot|all of them|every|those|these|the boats|the {people})(?= |$)",
  ),
  p("threat", "mass_violence", "(?:shoot|kill|hang|gas|burn|lynch|exterminate) them(?: all)?(?= [.,!?;:]| *$| and)"),
  p(
    "threat",
    "mob",
    "(?:let us|lets|we should|we will|we need to|everyone) (?:all )?(?:meet|go|turn up|show up|gather|visit|pay a visit) (?:{w} ){0,4}?(?:outside|at|to) (?:his|her|their|the {w}|{w}) (?:house|home|office|door|school|address)",
  ),
  p(
    "threat",
    "mob",
    "bring (?:something heavy|a weapon|weapons|knives|a knife|bats|a bat|pitchforks|rope|petrol|a rope)|violence is the only (?:language|answer|way|thing)|(?:grab|get|sharpen) (?:the|your|our) (?:pitchforks|torches|guns|knives|rope)",
  ),
  p(
    "threat",
    "not_safe",
    "(?:will not|would not|are not|is not|never) (?:be )?safe(?= [.,!?;:]| *$| if| when| after| again)|make {your} (?:life|lives) (?:a )?(?:living )?(?:hell|misery|miserable)|what (?:i|we) (?:am|are) capable of|{your} (?:last|final) days|(?:we|they) are coming(?= [.,!?;:]| *$| for)|(?:not|never) walk away|lucky (?:i|we) (?:do not|did not) know",
    false,
  ),
  p(
    "threat",
    "menace",
    "see what happens to {your}|what happens to (?:people like )?(?:you|u)(?= [.,!?;:]| *$| if| when| who)|expect a (?:call|visit|knock|surprise)|(?:first|next) (?:up )?against the wall|against the wall(?= [.,!?;:]| *$| when| first)|(?:you|u|he|she|they) (?:will|are going to|is going to|might|could) (?:end up|wake up) (?:in|on) (?:a |the )?(?:ditch|hospital|morgue|body bag|box|wheelchair|grave|river|canal|boot of)|in a body bag|leave in an ambulance|(?:make|watch) (?:you|u|him|her|them) (?:suffer|pay|bleed|beg|scream|squirm|regret|sorry)|(?:brick|rock|stone|petrol bomb|bullet|firework) through (?:his|her|your|ur|their|the) (?:front )?(?:window|windows|door|windscreen|letterbox)|shut (?:you|u|him|her|them) up (?:permanently|for good|forever)|(?:silence|deal with|sort) (?:you|u|him|her|them) (?:permanently|for good|once and for all)|sleep with one eye open|accidents happen|people (?:go missing|disappear) (?:all the time|every day)|(?:you are|u are|you re) next(?= [.,!?;:]| *$)|(?:you are|u are|your name is) on my list|(?:i am|we are) coming for (?:you|u)|(?:this|it) will not end well for (?:you|u)|you (?:have|ve) been warned|do not say (?:i|we) did not warn you|(?:payback|your time) is coming|matter of time before (?:someone|somebody)|(?:rearrange|redecorate) {your} face|knock {your} (?:teeth|block|head) (?:out|in|off)|break {your} (?:legs|neck|arms|nose|jaw|fingers|kneecaps)|put (?:you|u|him|her) in (?:hospital|a wheelchair|the ground|a coma)|bury (?:you|u)(?= [.,!?;:]| *$| alive)|get my hands on (?:you|u|him|her)|(?:meet|see) (?:you|u) outside|step outside and say",
    false,
  ),
  p(
    "threat",
    "get_hurt",
    "(?:you|u|he|she|they|people like you) (?:will|are going to|is going to|might|could|are gonna|will soon) (?:{w} )?get (?:hurt|battered|stabbed|shot|beaten|killed|smacked|done in|what (?:you|he|she|they) deserves?|what is coming)|with (?:them|him|her|you|u) (?:still )?(?:inside|in it|in there)|(?:set fire to|put a match to|petrol through) (?:{w} ){0,3}?(?:house|home|office|offices|car|door|letterbox|mosque|church|shop)|deal with (?:him|her|you|u|them) (?:properly|permanently|for good|myself|ourselves)|(?:end|ends|ended) up in (?:a |the )?(?:hospital|ditch|morgue|body bag|wheelchair|grave|river|canal|a&e)",
    false,
  ),
  p(
    "threat",
    "getting",
    "(?:you are|u are|ur|you re|he is|she is|they are) (?:{w} )?getting (?:a slap|slapped|a kicking|kicked in|a beating|battered|smacked|a smack|done in|stabbed|glassed|hurt|knocked out|decked|a bullet)|better hope (?:i|we) (?:never |do not )?(?:find|catch|see|meet)|find out where (?:you|u|he|she|they) (?:live|lives|work|works|sleep|sleeps)|dealt with(?: ,)? (?:permanently|for good|properly|once and for all)|sort (?:you|u|him|her|them) out(?= [.,!?;:]| *$| for| properly)",
    false,
  ),
  // ── self-harm incitement ──
  p(
    "self_harm",
    "kill_yourself",
    "(?:kill|unalive|hang|neck|shoot|drown|off|end|poison|burn|stab|hurt|cut|delete) {self}|kys|k y s",
  ),
  p(
    "self_harm",
    "kill_yourself",
    "(?:drink|swallow|eat|chug|down) (?:some |a |the )?(?:bleach|poison|antifreeze|drain cleaner|cyanide)",
  ),
  p(
    "self_harm",
    "kill_yourself",
    "(?:jump|leap|throw {self}) (?:off|from|in front of) (?:a|the) (?:{w} )?(?:bridge|cliff|building|roof|train|bus|tower|balcony|motorway|ledge)|(?:step|walk|lie down|throw {self}) in front of (?:a|the) (?:{w} )?(?:train|bus|lorry|truck|car)",
  ),
  p(
    "self_harm",
    "stop_breathing",
    "(?:just |please |maybe |pls )stop breathing|take a long walk off a short (?:pier|cliff|bridge)|(?:go )?play (?:in|on) (?:the )?traffic|the gene pool (?:would|needs)",
  ),
  p(
    "self_harm",
    "kill_yourself",
    "(?:slit|cut|open) {your} (?:wrists|throat)|(?:go|just|pls|please|better|should) (?:go )?die(?= [.,!?;:]| *$| in a| already| pls| please)|die in a (?:fire|hole|ditch)|drop dead(?! gorgeous| brilliant)",
  ),
  p(
    "self_harm",
    "nobody_miss",
    "(?:nobody|no one|noone|nobody here|not one person) (?:would|will|is going to) (?:{w} )?(?:miss|care|notice|mourn|cry)(?: about| for)? (?:{you}|if {you})",
    false,
  ),
  p(
    "self_harm",
    "nobody_miss",
    "if {you} (?:ended|end|ends|ending) it(?: all)?|(?:world|everyone|everybody|we|society|this site|planet|country) (?:would be|is|will be) (?:a lot |much |so |far )?better (?:off )?without (?:people like |the likes of )?{you}",
    false,
  ),
  p(
    "self_harm",
    "favour",
    "do (?:us all|everyone|the world|us|everybody|humanity|society|all of us|the gene pool|yourself) a (?:favou?r|service) and (?:{w} ){0,2}?(?:die|jump|kill|end it|hang|drop dead|unalive|off {self}|top {self}|stop breathing)",
    false,
  ),
  p(
    "self_harm",
    "foreign",
    "bring dich (?:{w} ){0,2}?um|(?:tote|toete|tot) dich|hang dich auf|tue toi|va te pendre|suicide toi|matate|suicidate|muerete|ahorcate",
  ),
  p(
    "self_harm",
    "end_it",
    "(?:you|u) (?:should|need to|could|might as well|better|ought to|must) (?:just |really |seriously )?end it(?: all)?(?= [.,!?;:]| *$| now| already| today| tonight)|(?:stop|quit) existing|(?:top|do) {self}(?: in)?(?= [.,!?;:]| *$| already| now| pls| please)|jump(?:ing)? (?:off|from) (?:something|anything|somewhere) (?:tall|high)",
    false,
  ),
  p(
    "self_harm",
    "still_alive",
    "why are (?:you|u) still (?:alive|breathing|here|living)|rope (?:[.,] )?tree|(?:i )?wish (?:you|u) (?:were|was) dead|(?:you|u) (?:do not|should not|shouldn't) (?:deserve to )?(?:live|exist)|(?:end|take) {your} (?:own |{w} )?life|nobody would care if (?:you|u) died|if (?:you|u) died (?:tomorrow|tonight|today)",
    false,
  ),
  p(
    "self_harm",
    "end_it_now",
    "(?:go on|just|then|please|so) (?:then )?(?:,\\s)?end it(?= [.,!?;:]| *$| already| now)|(?:jump|throw {self}|lie down|lay down) (?:under|in front of) (?:a|the) (?:{w} )?(?:train|bus|lorry|truck|car|tube)",
    false,
  ),
  // ── dismissals (always aimed) ──
  p(
    "dismissal",
    "shut_up",
    "shut (?:the (?:hell|fuck|fck|f|heck|fk) )?up(?! and take| shop)|stfu|gtfo|shut it(?= [.,!?;:]| *$)",
  ),
  p(
    "dismissal",
    "get_lost",
    "get lost|piss of+|bugger off|sod off|naff off|jog on|screw {you}|screw off|go screw {self}|go to hell|get a life|get a brain|grow a brain|eat shit|eat dirt",
  ),
  p(
    "dismissal",
    "nobody_likes",
    "(?:nobody|no one|noone) (?:here )?(?:likes|loves|respects|trusts|wants|rates|reads) (?:you|u)(?= [.,!?;:]| *$| and| or| here| anyway)|{your} face (?:looks|is) like|{your} (?:mum|mom|mother) should (?:have|of) (?:swallowed|aborted)|(?:still )?lives? (?:with|in) {your} (?:mum|mom|mother|parents)|(?:dumb|thick|stupid|daft) as (?:a )?(?:box|bag|sack|bucket|pile) of (?:rocks|hammers|bricks|spanners|frogs)|thick as (?:two short planks|mince|a brick|pigshit)|get (?:fucked|fcked|f\\*+ed|stuffed)|(?:shove|stick) (?:it|{w}(?: {w})?) up {your} (?:arse|ass)|(?:tu es|t es|tes|es) (?:vraiment |trop |tellement |si |un |une )?(?:con|conne|nul|nulle|bete|debile|stupide|idiot|idiote)",
    false,
  ),
  p(
    "dismissal",
    "shut_mouth",
    "shut {your} (?:mouth|face|trap|gob|pie hole|piehole|cakehole)|nobody (?:wants|needs) to hear (?:from )?(?:you|u|{your})|eat a bag of (?:dicks|shit)|kiss my (?:ass|arse)|suck my (?:dick|balls|cock)|bite me(?= [.,!?;:]| *$)",
    false,
  ),
  p(
    "dismissal",
    "nobody_asked",
    "(?:nobody|no one|noone|who) asked(?: you| for {your}| u)?(?= [.,!?;:]| *$| you| for)|(?:nobody|no one|noone) (?:here )?(?:cares|gives a {w}) (?:about|what) (?:{you}|{your}|a {w}(?: {w})? like {you})",
  ),
  p(
    "dismissal",
    "go_back",
    "(?:go|get|crawl|slither|scuttle) back (?:to|under|into|in) (?:{your} |whatever |the )?(?:school|primary school|basement|mum's basement|mums basement|mom's basement|mother's basement|cave|rock|bridge|hole|sewer|kindergarten)|crawl back under|back under whatever rock|(?:you|u) crawled out of|when {you} (?:finish|leave) (?:primary )?school",
  ),
  p(
    "dismissal",
    "read",
    "learn to read|(?:you|u) (?:clearly |obviously |evidently )?can not read|the adults are talking|log off (?:for good|forever|permanently)|delete {your} account",
  ),
  p(
    "dismissal",
    "dense",
    "imagine being (?:this|so|that) (?:dense|thick|stupid|dumb|dim|slow|ignorant|clueless)|(?:collective )?iq of (?:this|the) (?:{w} ){0,2}?drops|(?:two|one|three) brain cells|brain of a (?:gnat|goldfish|potato|rock|plank|walnut|peanut)|room temperature iq|smooth brain",
  ),
  p(
    "dismissal",
    "foreign",
    "halt (?:die|deine|dein|das) (?:{w} )?(?:klappe|maul|fresse)|halts maul|verpiss dich|fick dich|ferme (?:ta|la) gueule|ta gueule|va te faire foutre|nique ta mere|callate|vete a la mierda|que te den",
  ),
  p("dismissal", "village_idiot", "village idiot|stay mad|(?:bitch|b) please|(?:go )?suck (?:a|my|on) (?:dick|cock|d)"),
  p(
    "dismissal",
    "iq_of",
    "(?:you have|u have|{your}|you got) (?:the )?(?:iq|brain|brains|intelligence|mental age|personality|charisma) of a|(?:iq|brain|brains) (?:lower|smaller) than",
  ),
  p(
    "dismissal",
    "you_absolute",
    "(?:you|u) (?:absolute|utter|complete|total|massive|giant|colossal|fucking|bloody|effing) (?!legend|hero|star|gem|king|queen|angel|champ|diamond|treasure|saint|beauty|unit|madman|madlad|icon|god|genius)[a-z]+(?= [.,!?;:]| *$)|not worth the (?:air|oxygen|space|skin|paper) (?:you|u)|go (?:f|eff|frig|fk) {self}",
    false,
  ),
  p("dismissal", "pipe_down", "pipe down|(?:the )?grown ups are talking|up yours|kiss my (?:{w} )?(?:ass|arse)"),
  // ── insults as phrases ──
  p("insult_phrase", "waste_of", "waste of (?:oxygen|space|skin|air|carbon|a human|a person|flesh|good air)"),
  p(
    "insult_phrase",
    "sad_act",
    "sad act|utter disgrace|waste of a (?:vote|seat|salary)|intellectual (?:pygmy|lightweight)|brain the size of a (?:pea|peanut|walnut)",
  ),
  p("insult_phrase", "full_of", "full of (?:shit|crap|it|bullshit)(?= [.,!?;:]| *$| and)"),
  p(
    "insult_phrase",
    "piece_of",
    "piece of (?:shit|crap|garbage|trash|filth|work|dirt|scum|excrement)|sack of (?:shit|crap)|bag of (?:shit|dicks)",
  ),
  p(
    "insult_phrase",
    "excuse_for",
    "excuse for a (?:human|person|man|woman|journalist|reporter|writer|columnist|being|parent)",
  ),
  p(
    "insult_phrase",
    "little_man",
    "(?:sad|bitter|pathetic|miserable|angry|nasty|vile|insignificant) little (?:man|men|boy|boys|woman|troll|person|creature|worm|people|girl)",
  ),
  p(
    "insult_phrase",
    "names",
    "mouth breather|knuckle dragger|keyboard warrior|bottom feeder|low life|brain dead|lowest of the low",
  ),
  p(
    "vulgar_phrase",
    "vulgar",
    "shit for brains|hijo de puta|hijos de puta|son of a bitch|sons of bitches|fils de pute|piece of shit|fuck ?face|dick ?head|tosspot",
  ),
  // ── identity tropes that need no named group ──
  p(
    "identity_trope",
    "kitchen",
    "(?:get|go) back (?:in|to|into) the kitchen|belongs? in the kitchen|make (?:me )?a sandwich",
  ),
  p(
    "identity_trope",
    "go_home",
    "go back to (?:your|their|ur) (?:own )?(?:country|countries|village|jungle|desert|cave)|go back (?:to )?where (?:you|they|u) came from",
  ),
  p(
    "identity_trope",
    "go_back_to",
    "go back to (?:{w} ){1,2}where (?:you|they|u) belong|go back to (?:africa|asia|pakistan|india|china|mexico|poland|romania|bulgaria|somalia|nigeria|syria|afghanistan|iraq|iran|turkey|jamaica|bangladesh|albania|the jungle|the desert|your hut|the caves)|where (?:you|they) (?:came from|belong)(?= [.,!?;:]| *$)",
  ),
  p(
    "identity_trope",
    "send_back",
    "(?:send|ship|deport|kick) (?:them|the lot|all of them|every one of them|every last one of them)(?: all)? (?:back|out)(?: to| of| where|(?= [.,!?;:]| *$))",
  ),
];

export const NEGATIONS = new Set([
  "not",
  "never",
  "no",
  "nobody",
  "noone",
  "nothing",
  "nor",
  "without",
  "ne",
  "nicht",
  "pas",
  "nunca",
]);

/** The indexes of the tokens of each sentence (punctuation included), in order. */
export function tokensBySentence(tokens: Token[]): Map<number, number[]> {
  const sentences = new Map<number, number[]>();
  tokens.forEach((t, i) => {
    const list = sentences.get(t.sentence);
    if (list) list.push(i);
    else sentences.set(t.sentence, [i]);
  });
  return sentences;
}
