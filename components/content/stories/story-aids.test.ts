import { describe, expect, it } from "vitest";

import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";

import {
  countWordsIn,
  isSaveShortcut,
  lengthText,
  prePublishChecks,
  restoreConfirmation,
  SOCIAL_TITLE_MAX,
  socialCard,
  storyLength,
  WORDS_PER_MINUTE,
} from "./story-aids";
import { formValuesOf, type FormValues } from "./story-form";

const element = (type: TStoryElement["type"], text: string, extra: Partial<TStoryElement> = {}): TStoryElement => ({
  id: `${type}-${text.length}`,
  type,
  subtype: null,
  text,
  metadata: {},
  ...extra,
});
const card = (...elements: TStoryElement[]): TCard => ({
  id: "c1",
  status: "draft",
  version: 1,
  metadata: {},
  "story-elements": elements,
});

function values(overrides: Partial<FormValues> = {}): FormValues {
  return {
    ...formValuesOf(null, () => [card(element("text", "<p>Body text</p>"))]),
    headline: "Headline",
    sections: [{ id: 1, name: "News" }],
    authors: [{ id: 2, name: "Ada" }],
    heroKey: "images/hero.png",
    heroMetadata: { alt: "A harbour at dawn" },
    ...overrides,
  };
}

describe("word count and reading time", () => {
  it("counts words in HTML, not tags or entities; contractions and hyphenated words are one", () => {
    expect(countWordsIn("<p>Hello <strong>bold</strong> world</p><ul><li><p>one</p></li></ul>")).toBe(4);
    expect(countWordsIn("<p>It’s a well-known fact &amp; 42 people know it</p>")).toBe(8);
    expect(countWordsIn("<p></p>")).toBe(0);
    expect(countWordsIn('<p><a href="https://example.org/a-long-path">here</a></p>')).toBe(1);
  });

  it("counts the text readers read across cards (quotes, facts, a gallery's inner text), not captions or embeds", () => {
    const cards = [
      card(element("title", "Two words"), element("text", "<p>Three more words</p>")),
      card(
        element("quote", "We were ready", { metadata: { attribution: "The mayor of the town" } }),
        element("bigfact", "90%", { metadata: { content: "of homes flooded", attribution: "" } }),
        element("jsembed", "", { subtype: "tweet", url: "https://x.com/a/status/1" }),
      ),
    ];
    // 2 + 3 + 3 + 1 ("90") + 3
    expect(storyLength(cards)).toEqual({ words: 12, minutes: 1 });
    expect(storyLength([card(element("text", ""))])).toEqual({ words: 0, minutes: 0 });
  });

  it("rounds the reading time up to whole minutes", () => {
    const words = (n: number) => `<p>${Array.from({ length: n }, () => "word").join(" ")}</p>`;
    expect(storyLength([card(element("text", words(WORDS_PER_MINUTE)))]).minutes).toBe(1);
    expect(storyLength([card(element("text", words(WORDS_PER_MINUTE + 1)))]).minutes).toBe(2);
    expect(lengthText({ words: 1, minutes: 1 })).toBe("1 word · 1 min read");
    expect(lengthText({ words: 1234, minutes: 6 })).toBe("1,234 words · 6 min read");
    expect(lengthText({ words: 0, minutes: 0 })).toBe("0 words");
  });
});

describe("the checks before publishing", () => {
  it("has nothing to say about a complete story", () => {
    expect(prePublishChecks(values())).toEqual([]);
  });

  it("names what is missing: text, hero image (or its alt text), section, author", () => {
    const ids = (v: FormValues) => prePublishChecks(v).map((c) => c.id);
    expect(ids(values({ sections: [] }))).toEqual(["section"]);
    expect(ids(values({ authors: [] }))).toEqual(["author"]);
    expect(ids(values({ heroKey: "", heroMetadata: null }))).toEqual(["hero"]);
    expect(ids(values({ heroMetadata: { width: 10, height: 10 } }))).toEqual(["hero-alt"]);
    expect(ids(values({ heroMetadata: { alt: "   " } }))).toEqual(["hero-alt"]);
    expect(ids(values({ cards: [card(element("text", "<p></p>"))] }))).toEqual(["text"]);
    expect(ids(values({ sections: [], authors: [], heroKey: "", heroMetadata: null, cards: [] }))).toEqual([
      "text",
      "hero",
      "section",
      "author",
    ]);
  });
});

describe("restoring a revision", () => {
  it("on a published story, says it changes the live story at once and what readers get", () => {
    const confirm = restoreConfirmation("PUBLISHED", 3);
    expect(confirm.title).toBe("Restore version 3 on the live story?");
    expect(confirm.body).toMatch(
      /published: readers, the API and the feeds get version 3's headline, text and images at once/,
    );
    expect(confirm.confirmLabel).toBe("Restore and publish");
  });

  it("on a story readers cannot see, says readers see nothing until it is published", () => {
    for (const status of ["DRAFT", "SUBMITTED", "APPROVED", "RETRACTED"] as const) {
      const confirm = restoreConfirmation(status, 2);
      expect(confirm.title).toBe("Restore version 2?");
      expect(confirm.body).toMatch(/readers see nothing until the story is published/);
      expect(confirm.confirmLabel).toBe("Restore");
    }
  });
});

describe("the social card", () => {
  it("shows the site's host, the meta title or headline, a description and the hero image", () => {
    expect(socialCard(values({ summary: "The summary." }), "https://news.example.com/")).toEqual({
      host: "NEWS.EXAMPLE.COM",
      title: "Headline",
      description: "The summary.",
      imageKey: "images/hero.png",
      imageAlt: "A harbour at dawn",
    });
    const card = socialCard(
      values({ metaTitle: "Meta", metaDescription: "Meta description", heroKey: "", heroMetadata: null }),
      null,
    );
    expect(card).toMatchObject({ host: "YOUR-SITE.EXAMPLE", title: "Meta", description: "Meta description" });
    expect(card.imageKey).toBeNull();
  });

  it("falls back to the text for the description and cuts long titles", () => {
    const long = "word ".repeat(40).trim();
    const card = socialCard(values({ headline: long }), "not a url");
    expect(card.host).toBe("YOUR-SITE.EXAMPLE");
    expect(card.title.length).toBeLessThanOrEqual(SOCIAL_TITLE_MAX + 1);
    expect(card.title.endsWith("…")).toBe(true);
    expect(card.description).toBe("Body text");
  });
});

describe("the save shortcut", () => {
  const key = (k: string, mods: Partial<Record<"ctrlKey" | "metaKey" | "altKey" | "shiftKey", boolean>> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  it("is Ctrl+S or ⌘S, and nothing else", () => {
    expect(isSaveShortcut(key("s", { ctrlKey: true }))).toBe(true);
    expect(isSaveShortcut(key("s", { metaKey: true }))).toBe(true);
    expect(isSaveShortcut(key("S", { ctrlKey: true }))).toBe(true);
    expect(isSaveShortcut(key("s"))).toBe(false);
    expect(isSaveShortcut(key("s", { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isSaveShortcut(key("s", { ctrlKey: true, altKey: true }))).toBe(false);
    expect(isSaveShortcut(key("d", { ctrlKey: true }))).toBe(false);
  });
});
