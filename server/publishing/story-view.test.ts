import { describe, expect, it } from "vitest";

import { cardsPlainText, htmlToText, projectFields, readTimeMinutes, storyUrl } from "./story-view";

/** A story of one draft card holding these elements. */
const oneCard = <E>(elements: E[]) => [
  { id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a01", status: "draft", version: 1, metadata: {}, "story-elements": elements },
];

describe("story view helpers", () => {
  it("turns HTML into text, decoding entities and dropping scripts", () => {
    expect(htmlToText("<p>Fish &amp; <b>chips</b></p><script>alert(1)</script><p>&lt;3&nbsp;you</p>")).toBe(
      "Fish & chips <3 you",
    );
  });

  it("collects the readable text of cards in order", () => {
    const cards = oneCard([
      {
        id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a02",
        type: "text" as const,
        subtype: null,
        text: "<p>First words.</p>",
        metadata: {},
      },
      {
        id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a03",
        type: "image" as const,
        subtype: null,
        title: "A caption",
        "image-s3-key": "a.jpg",
        metadata: {},
      },
      {
        id: "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a04",
        type: "quote" as const,
        subtype: null,
        text: "Said so.",
        metadata: {},
      },
    ]);
    expect(cardsPlainText(cards)).toBe("First words.\nA caption\nSaid so.");
  });

  it("reads every element's text as HTML: quotes, titles, captions and descriptions are stored sanitised", () => {
    const element = (n: number, fields: Record<string, unknown>) => ({
      id: `7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a1${n}`,
      subtype: null,
      metadata: {},
      ...fields,
    });
    const cards = oneCard([
      element(1, { type: "quote", text: "<p>Fish &amp; <em>chips</em></p>" }),
      element(2, { type: "title", text: "Q&amp;A" }),
      element(3, { type: "image", title: "A <b>caption</b>", "image-s3-key": "a.jpg" }),
      element(4, { type: "youtube-video", description: "Tom &amp; Jerry" }),
    ]) as unknown as Parameters<typeof cardsPlainText>[0];
    expect(cardsPlainText(cards)).toBe("Fish & chips\nQ&A\nA caption\nTom & Jerry");
  });

  it("rounds read time to minutes at 200 words a minute, never below one", () => {
    expect(readTimeMinutes("")).toBe(1);
    expect(readTimeMinutes(Array.from({ length: 1000 }, () => "word").join(" "))).toBe(5);
  });

  it("projects fields and always keeps the id", () => {
    expect(projectFields({ id: "x", headline: "h", slug: "s" }, ["headline"])).toEqual({ id: "x", headline: "h" });
    expect(projectFields({ id: "x", headline: "h" }, undefined)).toEqual({ id: "x", headline: "h" });
  });

  it("builds story URLs that keep slashes and escape the rest", () => {
    expect(storyUrl("https://n.example/", "politics/a b")).toBe("https://n.example/politics/a%20b");
  });
});
