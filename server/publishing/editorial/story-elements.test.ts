import { describe, expect, it } from "vitest";

import type { ErrorDetail } from "../../errors";
import type { TStoryElement } from "../cards.schema";
import { checkElement } from "./story-elements";

const ID = "7f0d4c2e-5c1b-4b8e-9a57-0d7f1c7c0a01";
const el = (fields: Partial<TStoryElement> & { type: TStoryElement["type"] }): TStoryElement => ({
  id: ID,
  subtype: null,
  metadata: {},
  ...fields,
});

function check(element: TStoryElement) {
  const details: ErrorDetail[] = [];
  const out = checkElement(element, "cards.0.story-elements.0", details);
  return { out, issues: details.map((d) => `${d.field}: ${d.issue}`) };
}

describe("checkElement", () => {
  it("carries a blockquote's and a big fact's text as metadata.content", () => {
    for (const type of ["blockquote", "bigfact"] as const) {
      const { out, issues } = check(el({ type, text: " 42% ", metadata: { attribution: "Census", content: "old" } }));
      expect(issues).toEqual([]);
      expect(out).toMatchObject({ text: "42%", metadata: { content: "42%", attribution: "Census" } });
    }
  });

  it("requires the text of quotes, blockquotes and big facts", () => {
    for (const type of ["quote", "blockquote", "bigfact"] as const)
      expect(check(el({ type, text: "<p> </p>" })).issues).toEqual(["cards.0.story-elements.0.text: is required"]);
  });

  it("takes a gallery of images with keys, and nothing else", () => {
    const image = el({ type: "image", "image-s3-key": "1/2026/01/a.png" });
    expect(check(el({ type: "composite", subtype: "image-gallery", "story-elements": [image] })).issues).toEqual([]);
    expect(check(el({ type: "composite", subtype: "image-gallery", "story-elements": [] })).issues).toEqual([
      "cards.0.story-elements.0.story-elements: a gallery needs an image",
    ]);
    expect(
      check(
        el({
          type: "composite",
          subtype: "image-gallery",
          "story-elements": [el({ type: "image" }), el({ type: "text", text: "x" })],
        }),
      ).issues,
    ).toEqual([
      "cards.0.story-elements.0.story-elements.0.image-s3-key: is required",
      "cards.0.story-elements.0.story-elements.1.type: a gallery holds images only",
    ]);
    expect(check(el({ type: "composite", subtype: "carousel" })).issues).toEqual([
      "cards.0.story-elements.0.subtype: must be one of image-gallery",
    ]);
  });

  it("requires a file's link and names it from the link when unnamed", () => {
    expect(check(el({ type: "file" })).issues).toEqual(["cards.0.story-elements.0.file-url: is required"]);
    const { out, issues } = check(el({ type: "file", "file-url": "https://example.org/docs/Annual%20report.pdf" }));
    expect(issues).toEqual([]);
    expect(out["file-name"]).toBe("Annual report.pdf");
    expect(
      check(el({ type: "file", "file-url": "https://example.org/x", "file-name": " Report " })).out["file-name"],
    ).toBe("Report");
  });

  it("requires a known subtype and a link or embed code of other embeds", () => {
    expect(
      check(el({ type: "jsembed", subtype: "instagram", url: "https://www.instagram.com/p/abc/" })).issues,
    ).toEqual([]);
    expect(check(el({ type: "jsembed", subtype: "facebook-post", "embed-js": "PGI+eDwvYj4=" })).issues).toEqual([]);
    expect(check(el({ type: "jsembed", subtype: "instagram" })).issues).toEqual([
      "cards.0.story-elements.0.url: give the post's link or its embed code",
    ]);
    expect(check(el({ type: "jsembed", subtype: "myspace", url: "https://x.example/" })).issues).toEqual([
      "cards.0.story-elements.0.subtype: must be one of tweet, location, instagram, facebook-post",
    ]);
  });
});
