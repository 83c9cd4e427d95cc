/**
 * The cards of a demo story: paragraphs written from its section's sentences (shuffled the same
 * way on every run), an image, and a YouTube video, a tweet or a quote.
 */
import { randomUUID } from "node:crypto";

import { ownValue } from "@/server/own-keys";

import type { TCard, TStoryElement } from "../publishing/cards.schema";
import { escapeHtmlText } from "../security/html";
import { mulberry32 } from "../seeded-random";
import type { StorySpec } from "./demo-stories";

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

const VIDEOS = ["aqz-KE-bpKQ", "jNQXAC9IVRw", "dQw4w9WgXcQ"];
const TWEET = { id: "20", url: "https://twitter.com/jack/status/20" };

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

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

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
  // The same story gets the same text on every run.
  const random = mulberry32(index * 7919 + 17);
  const sentences = shuffled(ownValue(SENTENCES, spec.section) ?? SENTENCES.world!, random);
  const paragraph = (n: number) =>
    `<p>${escapeHtmlText(sentences.slice(n * 2, n * 2 + 2).join(" ") || spec.summary)}</p>`;
  const cards: TCard[] = [
    card(
      [
        textElement(`<p><strong>${escapeHtmlText(spec.summary)}</strong></p>`),
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
