/**
 * Short comments labelled by hand, to measure the lexicon scorer (lexicon-scorer.test.ts prints
 * precision and recall). Written for Masthead; not taken from any data set.
 *
 * - toxic: abuse, hate, threats or insults aimed at someone; would be held for a moderator.
 * - spam: promotion, scams, link drops, floods.
 * - fine: everything else, including rough language that aims at no one, and words that merely
 *   contain a rude one ("Scunthorpe", "assassin").
 *
 * Some are there because the scorer gets them wrong; the test asserts the levels it reaches, not
 * perfection. Add cases when a real comment is misjudged.
 */
export type Label = "toxic" | "spam" | "fine";

type LabelledExample = {
  text: string;
  label: Label;
  /** Links of link ops (URLs in the text are found by the scorer's input builder). */
  links?: string[];
  /** The reader is new (docs/engagement.md); default false. */
  newReader?: boolean;
};

export const LABELLED_EXAMPLES: LabelledExample[] = [
  // ─── toxic ───
  { text: "You are an idiot and everyone can see it.", label: "toxic" },
  { text: "fuck you and your stupid article", label: "toxic" },
  { text: "Kill yourself.", label: "toxic" },
  { text: "ur a b1tch lol", label: "toxic" },
  { text: "Shut up, you m0r0n", label: "toxic" },
  { text: "The author is a complete moron who should never write again.", label: "toxic" },
  { text: "People like you deserve to die.", label: "toxic" },
  { text: "I know where you live.", label: "toxic" },
  { text: "You're a pathetic loser.", label: "toxic" },
  { text: "go back to your country you filthy n1gger", label: "toxic" },
  { text: "what a f4cking twat you are", label: "toxic" },
  { text: "Typical libtard, what a clown.", label: "toxic" },
  { text: "YOU ARE ALL SCUM", label: "toxic" },
  { text: "screw you, idiot", label: "toxic" },
  { text: "this journalist is a worthless piece of sh1t", label: "toxic" },
  { text: "You absolute dimwit.", label: "toxic" },
  { text: "Anyone who voted for him should be shot.", label: "toxic" },
  { text: "Fuuuuck off, nobody asked you", label: "toxic" },
  { text: "Stupid comments from stupid people, as usual.", label: "toxic" },
  { text: "Your mother must be so ashamed of you, you disgusting cretin.", label: "toxic" },

  // ─── spam ───
  {
    text: "Make money from home! I earn $500 a day, click here https://easy-cash.example.xyz",
    label: "spam",
  },
  { text: "BUY CHEAP VIAGRA NOW WITHOUT PRESCRIPTION", label: "spam" },
  { text: "https://bit.ly/3xyz", label: "spam", newReader: true },
  {
    text: "Great article! Check out my channel for more: https://video.example.com/c/mine",
    label: "spam",
    newReader: true,
  },
  { text: "great great great great great great great", label: "spam" },
  {
    text: "Best deals here",
    label: "spam",
    links: ["https://a.example.shop/1", "https://a.example.shop/2", "https://a.example.shop/3"],
  },
  { text: "DM me on WhatsApp for guaranteed returns on crypto signals", label: "spam" },
  { text: "Hot singles in your area tonight: datingsite.top", label: "spam" },
  { text: "Use promo code SAVE50 at www.cheap-shoes.example.com buy now", label: "spam" },
  { text: "Lose weight fast with these pills, 100% free trial! visit my profile", label: "spam" },
  {
    text: "See these",
    label: "spam",
    links: [
      "https://x.example.com/1",
      "https://x.example.com/2",
      "https://x.example.com/3",
      "https://x.example.com/4",
      "https://x.example.com/5",
    ],
  },
  { text: "subscribe to my onlyfans 🔥🔥🔥", label: "spam" },
  { text: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", label: "spam" },
  { text: "Payday loan approved in minutes, message me on telegram", label: "spam" },
  { text: "Investment opportunity: double your bitcoin in 24 hours www.btc2x.example.io", label: "spam" },

  // ─── fine ───
  { text: "Great piece, thank you for the careful reporting.", label: "fine" },
  { text: "Scunthorpe United deserved the win on Saturday.", label: "fine" },
  { text: "I just finished this assassin novel and could not put it down.", label: "fine" },
  { text: "The cocktail bar on Essex Road has closed, sadly.", label: "fine" },
  { text: "This analysis of the budget is spot on.", label: "fine" },
  { text: "I disagree: the council had no money to fix the roads.", label: "fine" },
  { text: "What a stupid idea to close the library.", label: "fine" },
  { text: "Holy shit, you're right about the numbers.", label: "fine" },
  { text: "This is fucking brilliant journalism.", label: "fine" },
  { text: "The rape trial coverage was handled with care.", label: "fine" },
  { text: "Source for the figures: https://www.ons.gov.uk/economy", label: "fine" },
  { text: "The report is here https://example.org/report and the data here https://example.org/data", label: "fine" },
  { text: "No no no, that's not what the minister said.", label: "fine" },
  { text: "THIS GOVERNMENT IS A DISGRACE AND EVERYONE KNOWS IT", label: "fine" },
  { text: "Grapes, bananas and shiitake mushrooms were all in short supply.", label: "fine" },
  { text: "My grandmother worked from home for forty years as a seamstress.", label: "fine" },
  { text: "Kill your darlings, as every editor says.", label: "fine" },
  { text: "You make a good point about the pensions.", label: "fine" },
  { text: "The cockpit recorder was found on Tuesday.", label: "fine" },
  { text: "Is Bitcoin a bubble? I think the article underplays the risk.", label: "fine" },
  { text: "Firsttttttt!", label: "fine" },
  { text: "Dick Francis wrote the best racing thrillers.", label: "fine" },
  { text: "Hancock's statement contradicts the earlier briefing.", label: "fine" },
  { text: "Ignorant of the facts, the committee voted anyway.", label: "fine" },
  { text: "Thanks! Sharing this with my class.", label: "fine" },
  { text: "Shut up and take my money, these season tickets are a bargain.", label: "fine" },
];
