/**
 * The demo publisher's content: what a newcomer sees in the read API, the feeds and the dashboard
 * right after `npm start`. For the demo account it creates, when missing:
 *
 * - a PublisherConfig (site URL = APP_URL, image CDN = Masthead's own /images, settings, SEO,
 *   theme, AMP config);
 * - 6 sections and 1 child section, each with its automated section collection;
 * - 6 authors with bios, 12 tags, people, organisations and a team with its "players";
 * - 36 published stories with text, image, YouTube and tweet elements and hero images, spread over
 *   the last three weeks; 2 drafts; 1 breaking news story that expires in 3 days;
 * - collections: "home" (manual: stories, then the section collections as children),
 *   "editors-picks" (manual) and "technology-and-business" (automated by rules).
 *
 * Hero and inline images are real PNG files drawn in code and put in the image storage (UPLOAD_DIR,
 * or the S3 bucket when configured) with ImageAsset rows, keyed like uploads, so GET /images/<key>
 * serves them.
 *
 * Idempotent: every row is looked up by its slug (or key) first and only created when missing, so a
 * second run changes nothing, and edits made in the dashboard survive.
 */
import { createHash, randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";

import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import type { TCard, TStoryElement } from "../publishing/cards.schema";
import { cardsPlainText, readTimeMinutes } from "../publishing/story-view";
import { diskImageStorage, type ImageStorage } from "../storage/image-storage";
import type { SeedReport } from "./demo";

// ─── The corpus ──────────────────────────────────────────────────────────────────────────────

type SectionSpec = { slug: string; name: string; parent?: string; colours: [string, string] };
export const DEMO_SECTIONS: SectionSpec[] = [
  { slug: "politics", name: "Politics", colours: ["#7b1e1e", "#e0a458"] },
  { slug: "world", name: "World", colours: ["#12355b", "#6fb1c8"] },
  { slug: "business", name: "Business", colours: ["#1b4332", "#95d5b2"] },
  { slug: "technology", name: "Technology", colours: ["#240046", "#7b2cbf"] },
  { slug: "sport", name: "Sport", colours: ["#003049", "#fcbf49"] },
  { slug: "culture", name: "Culture", colours: ["#6a040f", "#f48c06"] },
  { slug: "football", name: "Football", parent: "sport", colours: ["#081c15", "#52b788"] },
];

export const DEMO_AUTHORS = [
  {
    slug: "amara-okafor",
    name: "Amara Okafor",
    twitter: "amaraokafor",
    bio: "Political correspondent. Covers parliament, elections and the people who run them. Previously at the regional desk.",
  },
  {
    slug: "lukas-brandt",
    name: "Lukas Brandt",
    twitter: "lukasbrandt",
    bio: "World affairs editor, based in Berlin. Writes about diplomacy, trade and the European Union.",
  },
  {
    slug: "priya-raman",
    name: "Priya Raman",
    twitter: "priyaraman",
    bio: "Business reporter following markets, central banks and the companies that move them.",
  },
  {
    slug: "tom-whitaker",
    name: "Tom Whitaker",
    twitter: "tomwhitaker",
    bio: "Technology writer. Artificial intelligence, open source and the economics of the internet.",
  },
  {
    slug: "sofia-marquez",
    name: "Sofía Márquez",
    twitter: "sofiamarquez",
    bio: "Sports journalist and former semi-professional footballer. Covers football and the Olympic sports.",
  },
  {
    slug: "jonah-kim",
    name: "Jonah Kim",
    twitter: "jonahkim",
    bio: "Culture critic: film, music, books and the festivals in between.",
  },
];

export const DEMO_TAGS = [
  ["elections", "Elections"],
  ["climate", "Climate"],
  ["economy", "Economy"],
  ["artificial-intelligence", "Artificial intelligence"],
  ["startups", "Startups"],
  ["football", "Football"],
  ["olympics", "Olympics"],
  ["film", "Film"],
  ["music", "Music"],
  ["health", "Health"],
  ["europe", "Europe"],
  ["trade", "Trade"],
] as const;

type EntitySpec = { key: string; name: string; type: string; slug: string; metadata?: Record<string, unknown> };
export const DEMO_ENTITIES: EntitySpec[] = [
  {
    key: "alvarez",
    name: "Maria Alvarez",
    type: "person",
    slug: "maria-alvarez",
    metadata: { role: "Prime minister" },
  },
  {
    key: "osei",
    name: "Daniel Osei",
    type: "person",
    slug: "daniel-osei",
    metadata: { role: "Leader of the opposition" },
  },
  { key: "ecb", name: "European Central Bank", type: "organisation", slug: "european-central-bank" },
  {
    key: "opengrid",
    name: "OpenGrid Labs",
    type: "organisation",
    slug: "opengrid-labs",
    metadata: { industry: "Artificial intelligence" },
  },
  { key: "un", name: "United Nations", type: "organisation", slug: "united-nations" },
  {
    key: "riverside",
    name: "Riverside United",
    type: "team",
    slug: "riverside-united",
    metadata: { founded: 1894, stadium: "Mill Lane" },
  },
  { key: "okoro", name: "Chidi Okoro", type: "person", slug: "chidi-okoro", metadata: { position: "Striker" } },
  {
    key: "lindqvist",
    name: "Erik Lindqvist",
    type: "person",
    slug: "erik-lindqvist",
    metadata: { position: "Goalkeeper" },
  },
  { key: "moreau", name: "Luc Moreau", type: "person", slug: "luc-moreau", metadata: { position: "Midfielder" } },
];
const TEAM_PLAYERS = ["okoro", "lindqvist", "moreau"];

type StorySpec = {
  section: string;
  headline: string;
  sub: string;
  summary: string;
  tags: string[];
  entities?: string[];
  author: number;
};

/** Sentences each section's stories are written from (deterministically shuffled per story). */
const SENTENCES: Record<string, string[]> = {
  politics: [
    "Ministers spent the morning defending the plan in a series of broadcast interviews.",
    "Opposition members said the proposal had been rushed and demanded a full vote in parliament.",
    "Polling published this week suggests voters are divided almost evenly on the question.",
    "Officials insisted that the timetable was realistic and that the funding had already been set aside.",
    "Several backbenchers have written to party whips asking for the details to be published before the debate.",
    "The election commission confirmed that the new rules would apply from the next general election.",
    "Local councils, which would carry out much of the work, have asked for more time and more money.",
    "Analysts said the government was trying to reset the agenda after a difficult few months.",
  ],
  world: [
    "Diplomats from more than forty countries gathered for the talks, which ran late into the night.",
    "The agreement still has to be ratified by national parliaments, a process that could take years.",
    "Aid agencies warned that the situation on the ground remained fragile despite the ceasefire.",
    "Trade between the two regions has doubled over the past decade, according to official figures.",
    "The foreign minister said the door to further negotiations remained open.",
    "Observers noted that the summit's final statement was notably softer than earlier drafts.",
    "Climate finance was the most contested point, with poorer countries asking for firm commitments.",
    "Protesters gathered outside the conference centre, calling for faster action on emissions.",
  ],
  business: [
    "Shares rose sharply in early trading before settling slightly higher by the close.",
    "The central bank left interest rates unchanged but signalled that cuts could come later in the year.",
    "Economists had expected inflation to ease more quickly, and the figures surprised the markets.",
    "The company said it would invest in new factories and hire several hundred people.",
    "Small businesses say higher energy costs are still the biggest pressure on their margins.",
    "Investors are watching consumer spending closely for signs that the economy is slowing.",
    "The deal values the startup at more than a billion euros, making it one of the largest this year.",
    "Trade unions welcomed the announcement but said they wanted guarantees on wages.",
  ],
  technology: [
    "The model was trained on a mix of public and licensed data, the company said.",
    "Researchers warned that the system still makes confident mistakes on simple questions.",
    "The open source release was downloaded tens of thousands of times in its first day.",
    "Regulators in Brussels are drafting rules on how such systems can be used in public services.",
    "Engineers said the new chips use a fraction of the power of the previous generation.",
    "Privacy campaigners have asked for an independent audit of how the data is stored.",
    "Startups building on the platform say the lower prices make new products possible.",
    "The software update is rolling out gradually and should reach every device within a month.",
  ],
  sport: [
    "The crowd rose to its feet as the final whistle blew after a tense second half.",
    "The coach praised the squad's discipline and said the result had been coming for weeks.",
    "Injuries have disrupted the team's preparations, with three first-choice players missing.",
    "Organisers said ticket sales for the championship had broken every previous record.",
    "The athlete's time was the fastest in the world this season and a new national record.",
    "Fans travelled in their thousands for the away fixture despite the long journey.",
    "The governing body confirmed that the new rules would be trialled at youth level first.",
    "Television audiences for the tournament have grown every year since it was founded.",
  ],
  culture: [
    "The film premiered to a standing ovation that lasted several minutes.",
    "Critics have called the album the band's most ambitious work in a decade.",
    "The festival expects more than a hundred thousand visitors over the long weekend.",
    "The exhibition brings together works that have never before been shown in the same room.",
    "The director said the story was inspired by her grandmother's letters.",
    "Streaming numbers for the series doubled after the second season was announced.",
    "The novel, a slow-burning family saga, has become an unlikely bestseller.",
    "Museum attendance has finally returned to the levels seen before the pandemic.",
  ],
};
SENTENCES.football = [
  ...SENTENCES.sport!,
  "Riverside United's striker Chidi Okoro scored twice in the first half.",
  "Goalkeeper Erik Lindqvist made a string of saves to keep the lead intact.",
  "Midfielder Luc Moreau controlled the tempo and was named man of the match.",
];

export const DEMO_STORIES: StorySpec[] = [
  {
    section: "politics",
    headline: "Prime minister unveils plan to overhaul local elections",
    sub: "Councils would move to a single polling day every four years",
    summary: "Maria Alvarez says the reform will raise turnout and cut costs; the opposition calls it a power grab.",
    tags: ["elections"],
    entities: ["alvarez", "osei"],
    author: 0,
  },
  {
    section: "politics",
    headline: "Opposition leader calls for independent inquiry into housing spending",
    sub: "Daniel Osei says billions were committed without proper oversight",
    summary: "The request follows a report that found projects running years behind schedule.",
    tags: ["economy"],
    entities: ["osei"],
    author: 0,
  },
  {
    section: "politics",
    headline: "Parliament votes to lower the voting age to sixteen",
    sub: "The change will apply from the next general election",
    summary: "A cross-party majority backed the bill after a long campaign by youth groups.",
    tags: ["elections"],
    author: 0,
  },
  {
    section: "politics",
    headline: "Health budget row deepens as ministers trade figures",
    sub: "Hospitals warn of winter pressure without extra funding",
    summary:
      "The health minister insists spending is at a record high; doctors say it is not keeping pace with demand.",
    tags: ["health", "economy"],
    entities: ["alvarez"],
    author: 0,
  },
  {
    section: "politics",
    headline: "Climate bill survives late-night vote by a narrow margin",
    sub: "Amendments on farming subsidies were defeated",
    summary: "The government's flagship climate law passed its second reading with a majority of eleven.",
    tags: ["climate"],
    entities: ["alvarez"],
    author: 0,
  },
  {
    section: "world",
    headline: "Climate summit ends with a deal on adaptation finance",
    sub: "Poorer nations secure a fund but no firm figure",
    summary: "Negotiators agreed to create a new fund after two weeks of talks, leaving the size of it for next year.",
    tags: ["climate"],
    entities: ["un"],
    author: 1,
  },
  {
    section: "world",
    headline: "European leaders agree new trade framework with Latin America",
    sub: "Farmers' groups on both sides remain opposed",
    summary: "The framework removes most tariffs over ten years and sets shared standards for deforestation.",
    tags: ["trade", "europe"],
    author: 1,
  },
  {
    section: "world",
    headline: "United Nations warns of record displacement in its annual report",
    sub: "Conflict and extreme weather drive people from their homes",
    summary: "The report counts more displaced people than at any time since records began.",
    tags: ["climate"],
    entities: ["un"],
    author: 1,
  },
  {
    section: "world",
    headline: "Ceasefire holds for a second week as talks resume in Geneva",
    sub: "Humanitarian corridors reopen for aid convoys",
    summary: "Mediators describe cautious optimism as both delegations return to the table.",
    tags: ["europe"],
    entities: ["un"],
    author: 1,
  },
  {
    section: "world",
    headline: "Heatwave grips southern Europe as temperatures pass 44C",
    sub: "Wildfire alerts issued in four countries",
    summary: "Authorities have opened cooling centres and restricted outdoor work during the afternoon.",
    tags: ["climate", "europe"],
    author: 1,
  },
  {
    section: "business",
    headline: "Central bank holds rates and hints at cuts later this year",
    sub: "Inflation is falling more slowly than forecast",
    summary: "The European Central Bank kept its main rate unchanged, saying it needs more evidence before easing.",
    tags: ["economy", "europe"],
    entities: ["ecb"],
    author: 2,
  },
  {
    section: "business",
    headline: "Energy prices push small business confidence to a two-year low",
    sub: "A survey of 3,000 firms finds costs still rising",
    summary: "Owners say they are delaying hiring and investment until bills come down.",
    tags: ["economy"],
    author: 2,
  },
  {
    section: "business",
    headline: "Battery startup raises record funding round to build gigafactory",
    sub: "The plant will employ 1,200 people by 2027",
    summary: "Investors back the company's sodium-ion design as a cheaper alternative to lithium.",
    tags: ["startups", "climate"],
    author: 2,
  },
  {
    section: "business",
    headline: "Retail sales rise for the third month in a row",
    sub: "Online spending drives most of the growth",
    summary: "Economists say consumers are more confident as wages catch up with prices.",
    tags: ["economy"],
    author: 2,
  },
  {
    section: "business",
    headline: "Shipping costs climb as trade routes are disrupted",
    sub: "Container rates have doubled since the spring",
    summary: "Importers warn that higher freight costs will reach shop prices by the autumn.",
    tags: ["trade", "economy"],
    author: 2,
  },
  {
    section: "technology",
    headline: "OpenGrid Labs releases an open source language model",
    sub: "The model runs on a single laptop graphics card",
    summary: "The release includes the training code and data documentation, a first for a model of its size.",
    tags: ["artificial-intelligence", "startups"],
    entities: ["opengrid"],
    author: 3,
  },
  {
    section: "technology",
    headline: "Regulators publish draft rules for artificial intelligence in public services",
    sub: "Automated decisions would need a human review",
    summary: "The draft requires agencies to explain automated decisions and keep records for five years.",
    tags: ["artificial-intelligence", "europe"],
    author: 3,
  },
  {
    section: "technology",
    headline: "New chips promise phones that last two days on a charge",
    sub: "The design cuts power use by forty percent",
    summary: "The first devices with the chips are expected in shops before the end of the year.",
    tags: ["startups"],
    author: 3,
  },
  {
    section: "technology",
    headline: "Hospitals trial AI tool that reads scans in seconds",
    sub: "Doctors say it catches problems they might miss",
    summary: "A six-month trial in three hospitals found the tool flagged urgent cases faster than the usual process.",
    tags: ["artificial-intelligence", "health"],
    entities: ["opengrid"],
    author: 3,
  },
  {
    section: "technology",
    headline: "Why the open web still matters in the age of chatbots",
    sub: "An essay on links, feeds and the sites that make them",
    summary: "Feeds and links remain the backbone of how news travels, even as answers move into chat windows.",
    tags: ["artificial-intelligence"],
    author: 3,
  },
  {
    section: "sport",
    headline: "Sprinter breaks national record in front of a home crowd",
    sub: "The time is the fastest in the world this season",
    summary: "The 23-year-old ran 9.91 seconds to take the title and a place at the Olympics.",
    tags: ["olympics"],
    author: 4,
  },
  {
    section: "sport",
    headline: "Olympic swimming trials produce three world-leading times",
    sub: "A teenager qualifies in the 200 metres butterfly",
    summary: "Selectors will name the team next week after a trials meet full of surprises.",
    tags: ["olympics"],
    author: 4,
  },
  {
    section: "sport",
    headline: "Cycling's grand tour returns to the mountains for a decisive week",
    sub: "Four riders are separated by less than a minute",
    summary: "Three summit finishes in four days will decide who wears the leader's jersey in Paris.",
    tags: ["olympics"],
    author: 4,
  },
  {
    section: "sport",
    headline: "Tennis champion announces retirement after twenty seasons",
    sub: "She won eleven major titles",
    summary: "The former world number one will play a farewell match at the tournament where her career began.",
    tags: [],
    author: 4,
  },
  {
    section: "football",
    headline: "Riverside United win the derby with a late Okoro double",
    sub: "The striker scored twice in the last ten minutes",
    summary: "Chidi Okoro turned the match around as Riverside United came from behind to win 2-1.",
    tags: ["football"],
    entities: ["riverside", "okoro"],
    author: 4,
  },
  {
    section: "football",
    headline: "Lindqvist keeps a sixth clean sheet as Riverside go top",
    sub: "The goalkeeper has not conceded in 540 minutes",
    summary:
      "Erik Lindqvist's run has carried Riverside United to the top of the table for the first time in a decade.",
    tags: ["football"],
    entities: ["riverside", "lindqvist"],
    author: 4,
  },
  {
    section: "football",
    headline: "Moreau signs a new four-year contract with Riverside United",
    sub: "The midfielder turned down offers from abroad",
    summary: "Luc Moreau says he wants to win a trophy with the club that gave him his debut.",
    tags: ["football"],
    entities: ["riverside", "moreau"],
    author: 4,
  },
  {
    section: "football",
    headline: "Women's league attendance doubles in a single season",
    sub: "Clubs move big matches to their main stadiums",
    summary: "The league says a new broadcast deal and cheaper tickets have brought in a new audience.",
    tags: ["football"],
    author: 4,
  },
  {
    section: "football",
    headline: "Cup draw pairs Riverside United with the holders",
    sub: "The tie will be played at Mill Lane next month",
    summary: "Riverside United face the hardest possible draw in the fourth round.",
    tags: ["football"],
    entities: ["riverside"],
    author: 4,
  },
  {
    section: "culture",
    headline: "Debut film wins the festival's top prize",
    sub: "The jury praised its patience and its performances",
    summary: "A quiet family drama shot in a single village took the main award on the final night.",
    tags: ["film"],
    author: 5,
  },
  {
    section: "culture",
    headline: "Band returns with its most ambitious album in a decade",
    sub: "Strings, choirs and a twelve-minute closing track",
    summary: "The record was made over three years in four different countries.",
    tags: ["music"],
    author: 5,
  },
  {
    section: "culture",
    headline: "Summer music festival sells out in record time",
    sub: "Organisers add a fourth stage for new artists",
    summary: "All 120,000 tickets sold in under an hour, beating last year's record.",
    tags: ["music"],
    author: 5,
  },
  {
    section: "culture",
    headline: "Museum reunites a painter's lost works for the first time",
    sub: "Two canvases were found in a private attic",
    summary: "The exhibition brings together 64 paintings scattered across three continents.",
    tags: [],
    author: 5,
  },
  {
    section: "culture",
    headline: "Streaming series about a newsroom becomes a surprise hit",
    sub: "Journalists say it gets the details right",
    summary: "The second season has been confirmed after the show topped the charts in twelve countries.",
    tags: ["film"],
    author: 5,
  },
  {
    section: "business",
    headline: "Climate investments outpace fossil fuels for the first time",
    sub: "Clean energy spending passes two trillion dollars",
    summary: "An industry report finds money flowing into grids, storage and renewables faster than ever.",
    tags: ["climate", "economy"],
    author: 2,
  },
  {
    section: "technology",
    headline: "Election officials test new tools to spot deepfake videos",
    sub: "Platforms agree to label manipulated content",
    summary: "Officials say the tools will be ready before the next general election.",
    tags: ["artificial-intelligence", "elections"],
    author: 3,
  },
];

const DRAFTS: StorySpec[] = [
  {
    section: "politics",
    headline: "Draft: what the coalition talks could mean for the budget",
    sub: "Working notes, not for publication",
    summary: "An explainer still being written.",
    tags: ["economy"],
    author: 0,
  },
  {
    section: "technology",
    headline: "Draft: hands-on with the new open source model",
    sub: "Review in progress",
    summary: "First impressions, to be finished after more testing.",
    tags: ["artificial-intelligence"],
    author: 3,
  },
];

const BREAKING: StorySpec = {
  section: "world",
  headline: "Earthquake of magnitude 6.1 strikes off the coast; no tsunami warning",
  sub: "Buildings shook in coastal towns; emergency services are assessing damage",
  summary: "Authorities say there are no immediate reports of serious injuries.",
  tags: ["europe"],
  author: 1,
};

const VIDEOS = ["aqz-KE-bpKQ", "jNQXAC9IVRw", "dQw4w9WgXcQ"];
const TWEET = { id: "20", url: "https://twitter.com/jack/status/20" };

// ─── Building stories ────────────────────────────────────────────────────────────────────────

export function demoSlug(headline: string): string {
  return headline
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}

/** A small deterministic PRNG (mulberry32), so the same story gets the same text on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function textElement(html: string): TStoryElement {
  return { id: randomUUID(), type: "text", subtype: null, text: html, metadata: {} };
}

function card(elements: TStoryElement[], at: number): TCard {
  return {
    id: randomUUID(),
    "content-id": randomUUID(),
    status: "draft",
    version: 1,
    "story-elements": elements,
    metadata: {},
    "card-added-at": at,
    "card-updated-at": at,
  };
}

/** Realistic, varied cards: paragraphs, an image, a quote, and a YouTube video or a tweet. */
export function demoCards(
  spec: StorySpec,
  index: number,
  images: { inline: { key: string; width: number; height: number } },
  at: number,
): TCard[] {
  const random = prng(index * 7919 + 17);
  const sentences = shuffled(SENTENCES[spec.section] ?? SENTENCES.world!, random);
  const paragraph = (n: number) => `<p>${escapeHtml(sentences.slice(n * 2, n * 2 + 2).join(" ") || spec.summary)}</p>`;
  const cards: TCard[] = [
    card(
      [
        textElement(`<p><strong>${escapeHtml(spec.summary)}</strong></p>`),
        textElement(paragraph(0)),
        textElement(paragraph(1)),
      ],
      at,
    ),
    card(
      [
        {
          id: randomUUID(),
          type: "image",
          subtype: null,
          title: `${spec.headline.split(" ").slice(0, 5).join(" ")}…`,
          "image-s3-key": images.inline.key,
          "image-metadata": { width: images.inline.width, height: images.inline.height, "mime-type": "image/png" },
          "image-attribution": "Masthead demo image",
          metadata: {},
        },
        textElement(paragraph(2)),
      ],
      at,
    ),
  ];
  const media: TStoryElement[] =
    index % 3 === 0
      ? [
          {
            id: randomUUID(),
            type: "youtube-video",
            subtype: null,
            url: `https://www.youtube.com/watch?v=${VIDEOS[index % VIDEOS.length]}`,
            "embed-url": `https://www.youtube.com/embed/${VIDEOS[index % VIDEOS.length]}`,
            "video-id": VIDEOS[index % VIDEOS.length],
            metadata: {},
          },
        ]
      : index % 3 === 1
        ? [
            {
              id: randomUUID(),
              type: "jsembed",
              subtype: "tweet",
              url: TWEET.url,
              "tweet-id": TWEET.id,
              "embed-js": Buffer.from(
                `<blockquote class="twitter-tweet"><a href="${TWEET.url}"></a></blockquote>`,
              ).toString("base64"),
              metadata: { provider: "twitter" },
            },
          ]
        : [
            {
              id: randomUUID(),
              type: "quote",
              subtype: null,
              text: sentences[6] ?? spec.summary,
              metadata: { attribution: "A spokesperson" },
            },
          ];
  cards.push(card([...media, textElement(paragraph(3))], at));
  return cards;
}

// ─── Images ──────────────────────────────────────────────────────────────────────────────────

const IMAGE_SIZE = { width: 640, height: 360 };

type DemoImage = { key: string; width: number; height: number };

async function ensureImage(
  db: Db,
  args: {
    accountId: number;
    images: ImageStorage;
    name: string;
    colours: [string, string];
    bands: number;
    report: SeedReport;
  },
): Promise<DemoImage> {
  const key = demoImageKey(args.accountId, args.name);
  const existing = await args.images.get(key);
  let bytes: number;
  if (!existing) {
    const png = gradientPng(IMAGE_SIZE.width, IMAGE_SIZE.height, args.colours[0], args.colours[1], args.bands);
    await args.images.put(key, png, { contentType: "image/png" });
    bytes = png.length;
  } else {
    bytes = existing.size;
    await existing.body.cancel();
  }
  const asset = await db.imageAsset.findUnique({ where: { key }, select: { id: true } });
  if (!asset) {
    await db.imageAsset.create({
      data: {
        id: stableUuid(`asset:${key}`),
        accountId: args.accountId,
        key,
        mimeType: "image/png",
        bytes,
        ...IMAGE_SIZE,
      },
    });
    args.report.created.push(`image ${key}`);
  }
  return { key, ...IMAGE_SIZE };
}

// ─── The seed ────────────────────────────────────────────────────────────────────────────────

export type DemoContentOptions = {
  accountId: number;
  appUrl: string;
  uploadDir: string;
  /** Where the images go (S3 when configured); default: the disk under `uploadDir`. */
  images?: ImageStorage;
  now?: Date;
};
export type DemoContentSummary = {
  storySlugs: string[];
  draftSlugs: string[];
  breakingSlug: string;
  sectionSlugs: string[];
  collectionSlugs: string[];
};

/**
 * Create whatever of the demo content is missing. Adds one line to `report` summarising what it
 * created ("demo content: 39 stories, 14 images, …"), none on a re-run that finds everything.
 */
export async function seedDemoContent(
  db: Db,
  options: DemoContentOptions,
  seedReport: SeedReport = { created: [] },
): Promise<DemoContentSummary> {
  const report: SeedReport = { created: [] };
  const summary = await seedContent(db, options, report);
  if (report.created.length > 0) {
    const counts = new Map<string, number>();
    for (const line of report.created) {
      const kind = line.split(" ")[0]!;
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    seedReport.created.push(
      `demo content (${[...counts].map(([kind, n]) => (kind === "publisher" ? "publisher config" : `${n} ${kind === "story" ? "stories" : kind === "entity" ? "entities" : kind === "relationship" ? "relationships" : `${kind}s`}`)).join(", ")})`,
    );
  }
  return summary;
}

async function seedContent(db: Db, options: DemoContentOptions, report: SeedReport): Promise<DemoContentSummary> {
  const { accountId } = options;
  const now = options.now ?? new Date();
  const appHost = new URL(options.appUrl).host;

  // Publisher configuration.
  if (!(await db.publisherConfig.findUnique({ where: { accountId }, select: { accountId: true } }))) {
    await db.publisherConfig.create({
      data: {
        accountId,
        siteUrl: options.appUrl,
        cdnImage: `${appHost}/images`,
        languageIsoCode: "en",
        languageIetfCode: "en-GB",
        languageDirection: "ltr",
        settings: {
          title: "The Daily Masthead",
          description: "Independent news, analysis and culture, published with Masthead.",
          copyright: "© The Daily Masthead (demo content)",
          "publisher-logo": { url: null },
        },
        seo: {
          "meta-title": "The Daily Masthead",
          "meta-description": "Independent news, analysis and culture.",
          "meta-keywords": ["news", "politics", "world", "business", "technology", "sport", "culture"],
        },
        theme: { "primary-color": "#b3261e", "secondary-color": "#1d3557", logo: null, "cache-burst": 1 },
        socialLinks: { "twitter-url": "https://twitter.com/masthead_demo" },
        layout: {
          menu: DEMO_SECTIONS.filter((s) => !s.parent).map((s) => ({
            "item-type": "section",
            title: s.name,
            url: `/${s.slug}`,
          })),
        },
        ampConfig: {
          fonts: { primary: { family: "Georgia, serif" }, secondary: { family: "system-ui, sans-serif" } },
          colors: {
            primary: "#b3261e",
            secondary: "#1d3557",
            "header-background": "#ffffff",
            "footer-background": "#1d3557",
            "footer-text-color": "#ffffff",
            "section-text-color": "#b3261e",
          },
          "related-collection-id": "home",
          "invalid-elements-strategy": "redirect-to-web-version",
        },
      },
    });
    report.created.push("publisher config");
  }

  // Images: one hero and one inline picture per section.
  const images = options.images ?? diskImageStorage(options.uploadDir);
  const demoImages = new Map<string, { hero: DemoImage; inline: DemoImage }>();
  for (const [i, section] of DEMO_SECTIONS.entries()) {
    demoImages.set(section.slug, {
      hero: await ensureImage(db, {
        accountId,
        images,
        name: `${section.slug}-hero`,
        colours: section.colours,
        bands: 3 + i,
        report,
      }),
      inline: await ensureImage(db, {
        accountId,
        images,
        name: `${section.slug}-inline`,
        colours: [section.colours[1], section.colours[0]],
        bands: 9 + i,
        report,
      }),
    });
  }

  // Sections, each with its automated section collection.
  const sections = new Map<string, number>();
  for (const [position, spec] of DEMO_SECTIONS.entries()) {
    let section = await db.section.findUnique({ where: { accountId_slug: { accountId, slug: spec.slug } } });
    if (!section) {
      section = await db.section.create({
        data: {
          accountId,
          name: spec.name,
          displayName: spec.name,
          slug: spec.slug,
          parentId: spec.parent ? sections.get(spec.parent)! : null,
          position,
        },
      });
      report.created.push(`section ${spec.slug}`);
    }
    if (!section.collectionId) {
      const slug = `section-${spec.slug}`;
      const collection =
        (await db.collection.findUnique({ where: { accountId_slug: { accountId, slug } } })) ??
        (await db.collection.create({
          data: { accountId, slug, name: spec.name, automated: true, rules: { "section-ids": [section.id] } },
        }));
      await db.section.update({ where: { id: section.id }, data: { collectionId: collection.id } });
      report.created.push(`collection ${slug}`);
    }
    sections.set(spec.slug, section.id);
  }

  // Authors, tags, entities and the team's players.
  const authors: number[] = [];
  for (const spec of DEMO_AUTHORS) {
    let author = await db.author.findUnique({
      where: { accountId_slug: { accountId, slug: spec.slug } },
      select: { id: true },
    });
    if (!author) {
      author = await db.author.create({
        data: {
          accountId,
          name: spec.name,
          slug: spec.slug,
          bio: spec.bio,
          twitterHandle: spec.twitter,
          email: `${spec.slug}@demo.masthead.test`,
        },
        select: { id: true },
      });
      report.created.push(`author ${spec.slug}`);
    }
    authors.push(author.id);
  }
  const tags = new Map<string, number>();
  for (const [slug, name] of DEMO_TAGS) {
    let tag = await db.tag.findUnique({ where: { accountId_slug: { accountId, slug } }, select: { id: true } });
    if (!tag) {
      tag = await db.tag.create({
        data: { accountId, slug, name, metaDescription: `Stories about ${name.toLowerCase()}.` },
        select: { id: true },
      });
      report.created.push(`tag ${slug}`);
    }
    tags.set(slug, tag.id);
  }
  const entities = new Map<string, number>();
  for (const spec of DEMO_ENTITIES) {
    let entity = await db.entity.findFirst({
      where: { accountId, slug: spec.slug, type: spec.type },
      select: { id: true },
    });
    if (!entity) {
      entity = await db.entity.create({
        data: {
          accountId,
          name: spec.name,
          type: spec.type,
          slug: spec.slug,
          metadata: (spec.metadata ?? {}) as Prisma.InputJsonValue,
        },
        select: { id: true },
      });
      report.created.push(`entity ${spec.slug}`);
    }
    entities.set(spec.key, entity.id);
  }
  for (const [rank, player] of TEAM_PLAYERS.entries()) {
    const key = { fromEntityId: entities.get("riverside")!, relation: "players", toEntityId: entities.get(player)! };
    if (
      !(await db.entityRelationship.findUnique({
        where: { fromEntityId_relation_toEntityId: key },
        select: { id: true },
      }))
    ) {
      await db.entityRelationship.create({ data: { ...key, rank } });
      report.created.push(`relationship riverside-united players ${player}`);
    }
  }

  // Stories.
  const hour = 3600_000;
  const createStory = async (
    spec: StorySpec,
    index: number,
    extra: { status: "PUBLISHED" | "DRAFT"; publishedAt: Date | null; breakingUntil?: Date },
  ) => {
    const slug = `${spec.section}/${demoSlug(spec.headline)}`;
    const existing = await db.story.findUnique({
      where: { accountId_slug: { accountId, slug } },
      select: { id: true },
    });
    if (existing) return { id: existing.id, slug };
    const sectionImages = demoImages.get(spec.section)!;
    const at = (extra.publishedAt ?? now).getTime();
    const cards = demoCards(spec, index, sectionImages, at);
    const plainText = cardsPlainText(cards);
    const sectionIds = [sections.get(spec.section)!];
    const parent = DEMO_SECTIONS.find((s) => s.slug === spec.section)?.parent;
    if (parent) sectionIds.push(sections.get(parent)!);
    const story = await db.story.create({
      data: {
        accountId,
        headline: spec.headline,
        subheadline: spec.sub,
        slug,
        summary: spec.summary,
        status: extra.status,
        storyTemplate: index % 3 === 0 ? "video" : "text",
        cards: cards as unknown as Prisma.InputJsonValue,
        plainText,
        readTime: readTimeMinutes(plainText),
        seo: { "meta-title": spec.headline, "meta-description": spec.summary, "meta-keywords": spec.tags },
        heroImageS3Key: sectionImages.hero.key,
        heroImageMetadata: {
          width: sectionImages.hero.width,
          height: sectionImages.hero.height,
          "mime-type": "image/png",
        },
        heroImageCaption: spec.sub,
        heroImageAttribution: "Masthead demo image",
        isBreakingNews: Boolean(extra.breakingUntil),
        breakingNewsExpiresAt: extra.breakingUntil ?? null,
        publishedAt: extra.publishedAt,
        firstPublishedAt: extra.publishedAt,
        lastPublishedAt: extra.publishedAt,
        createdAt: new Date(at - 2 * hour),
        sections: { create: sectionIds.map((sectionId, position) => ({ sectionId, position })) },
        authors: { create: [{ authorId: authors[spec.author]!, position: 0 }] },
        tags: { create: spec.tags.map((slug, position) => ({ tagId: tags.get(slug)!, position })) },
        entities: { create: (spec.entities ?? []).map((key) => ({ entityId: entities.get(key)! })) },
      },
      select: { id: true },
    });
    report.created.push(`story ${slug}`);
    return { id: story.id, slug };
  };

  const published: { id: string; slug: string; section: string }[] = [];
  for (const [index, spec] of DEMO_STORIES.entries()) {
    // Newest first, one every ~14 hours: the oldest is about three weeks old.
    const publishedAt = new Date(now.getTime() - (index * 14 + 1) * hour);
    published.push({
      ...(await createStory(spec, index, { status: "PUBLISHED", publishedAt })),
      section: spec.section,
    });
  }
  const breaking = await createStory(BREAKING, DEMO_STORIES.length, {
    status: "PUBLISHED",
    publishedAt: new Date(now.getTime() - 20 * 60_000),
    breakingUntil: new Date(now.getTime() + 3 * 24 * hour),
  });
  const drafts = [];
  for (const [i, spec] of DRAFTS.entries())
    drafts.push(await createStory(spec, DEMO_STORIES.length + 1 + i, { status: "DRAFT", publishedAt: null }));

  // Collections.
  const ensureCollection = async (
    slug: string,
    data: Omit<Prisma.CollectionUncheckedCreateInput, "accountId" | "slug">,
    items: () => Prisma.CollectionItemCreateWithoutCollectionInput[],
  ) => {
    if (await db.collection.findUnique({ where: { accountId_slug: { accountId, slug } }, select: { id: true } }))
      return;
    await db.collection.create({ data: { accountId, slug, ...data, items: { create: items() } } });
    report.created.push(`collection ${slug}`);
  };
  const sectionCollections = await db.collection.findMany({
    where: { accountId, sectionOf: { slug: { in: DEMO_SECTIONS.filter((s) => !s.parent).map((s) => s.slug) } } },
    select: { id: true, sectionOf: { select: { position: true } } },
  });
  sectionCollections.sort((a, b) => (a.sectionOf?.position ?? 0) - (b.sectionOf?.position ?? 0));
  const lead = [breaking, ...published.slice(0, 7)];
  await ensureCollection(
    "home",
    { name: "Home", summary: "The front page: top stories, then every section.", template: "home" },
    () => [
      ...lead.map((story, position) => ({
        position,
        story: { connect: { id: story.id } },
        associatedMetadata: { layout: position === 0 ? "lead" : "grid" },
      })),
      ...sectionCollections.map((collection, i) => ({
        position: lead.length + i,
        childCollection: { connect: { id: collection.id } },
        associatedMetadata: { layout: "section-row" },
      })),
    ],
  );
  const picks = published.filter((_, i) => i % 7 === 3).slice(0, 5);
  await ensureCollection(
    "editors-picks",
    { name: "Editors' picks", summary: "Stories our editors think you should not miss." },
    () => picks.map((story, position) => ({ position, story: { connect: { id: story.id } } })),
  );
  await ensureCollection(
    "technology-and-business",
    {
      name: "Technology and business",
      summary: "Everything from the technology and business desks, newest first.",
      automated: true,
      rules: { "section-ids": [sections.get("technology")!, sections.get("business")!], sort: "published-at" },
    },
    () => [],
  );

  return {
    storySlugs: published.map((s) => s.slug),
    draftSlugs: drafts.map((d) => d.slug),
    breakingSlug: breaking.slug,
    sectionSlugs: DEMO_SECTIONS.map((s) => s.slug),
    collectionSlugs: [
      "home",
      "editors-picks",
      "technology-and-business",
      ...DEMO_SECTIONS.map((s) => `section-${s.slug}`),
    ],
  };
}

// ─── PNG drawing ─────────────────────────────────────────────────────────────────────────────

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const body = Buffer.concat([head.subarray(4), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([head.subarray(0, 4), body, crc]);
}

function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** An RGB PNG: a diagonal gradient from `from` to `to`, with bands that make each image distinct. */
export function gradientPng(width: number, height: number, from: string, to: string, bands = 5): Buffer {
  const a = hexToRgb(from);
  const b = hexToRgb(to);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const band = 0.92 + 0.08 * Math.sin((x + y) * ((bands * Math.PI) / (width + height)));
      for (let c = 0; c < 3; c++) raw[row + 1 + x * 3 + c] = Math.round((a[c]! + (b[c]! - a[c]!) * t) * band);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0;
  header[11] = 0;
  header[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** A stable UUID (version-5 layout) from a name, so re-running the seed finds the same rows. */
export function stableUuid(name: string): string {
  const hex = createHash("sha1").update(`masthead-demo:${name}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The demo images live in one fixed month so their keys never change between runs. */
export function demoImageKey(accountId: number, name: string): string {
  return `${accountId}/2025/01/${stableUuid(`image:${name}`)}.png`;
}
