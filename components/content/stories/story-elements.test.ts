import { describe, expect, it } from "vitest";

import { ZStoryElement } from "@/server/publishing/cards.schema";
// eslint-disable-next-line no-restricted-imports -- the test holds the editor to the server's sanitiser
import { cleanStoryElement } from "@/server/publishing/editorial/sanitize";

import {
  decodeEmbed,
  ELEMENT_KINDS,
  encodeEmbed,
  focusPointFromClick,
  htmlToPlain,
  kindOf,
  move,
  newCard,
  newElement,
  newImage,
  plainToHtml,
} from "./story-elements";

describe("newElement", () => {
  it.each(ELEMENT_KINDS)("makes a %s element the wire schema accepts, named %s", (kind, name) => {
    const element = newElement(kind);
    expect(ZStoryElement.parse(element)).toEqual(element);
    expect(kindOf(element)).toBe(kind === "embed" ? "Embed (Instagram)" : kind === "youtube" ? "YouTube video" : name);
  });

  it("makes the shapes the read API serves", () => {
    expect(newElement("blockquote")).toMatchObject({ type: "blockquote", metadata: { content: "", attribution: "" } });
    expect(newElement("bigfact")).toMatchObject({ type: "bigfact", metadata: { content: "", attribution: "" } });
    expect(newElement("quote")).toMatchObject({ type: "quote", metadata: { attribution: "" } });
    expect(newElement("gallery")).toMatchObject({ type: "composite", subtype: "image-gallery", "story-elements": [] });
    expect(newElement("tweet")).toMatchObject({ type: "jsembed", subtype: "tweet" });
    expect(newElement("file")).toMatchObject({ type: "file", subtype: "attachment" });
    expect(newImage()).toMatchObject({ type: "image", "image-s3-key": "", title: "" });
  });

  it("gives every element and card its own id", () => {
    const a = newCard("text");
    const b = newCard("text");
    expect(a.id).not.toBe(b.id);
    expect(a["story-elements"][0]!.id).not.toBe(b["story-elements"][0]!.id);
  });
});

describe("move", () => {
  it("moves an item and keeps the rest in order", () => {
    expect(move(["a", "b", "c", "d"], 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(move(["a", "b", "c"], 2, 0)).toEqual(["c", "a", "b"]);
  });
  it("changes nothing out of range", () => {
    expect(move(["a", "b"], 0, -1)).toEqual(["a", "b"]);
    expect(move(["a", "b"], 1, 2)).toEqual(["a", "b"]);
  });
});

describe("plain text in HTML fields", () => {
  it("round-trips what is typed through what the server stores", () => {
    const typed = 'Fish & chips <3 "now"';
    const stored = cleanStoryElement({ ...newImage(), title: plainToHtml(typed) }, "x", []).title!;
    expect(stored).toBe(plainToHtml(typed));
    expect(htmlToPlain(stored)).toBe(typed);
  });
});

describe("embed code", () => {
  it("is base64 of UTF-8 both ways", () => {
    const code = '<blockquote class="instagram-media">Café ☕</blockquote>';
    expect(decodeEmbed(encodeEmbed(code))).toBe(code);
    expect(Buffer.from(encodeEmbed(code), "base64").toString("utf8")).toBe(code);
    expect(decodeEmbed("%%%")).toBe("");
  });
});

describe("focusPointFromClick", () => {
  it("scales a click on the preview to the image's pixels", () => {
    expect(focusPointFromClick({ x: 50, y: 25 }, { width: 200, height: 100 }, { width: 1600, height: 800 })).toEqual([
      400, 200,
    ]);
  });
  it("clamps inside the image", () => {
    expect(focusPointFromClick({ x: -5, y: 500 }, { width: 200, height: 100 }, { width: 1600, height: 800 })).toEqual([
      0, 800,
    ]);
    expect(focusPointFromClick({ x: 1, y: 1 }, { width: 0, height: 0 }, { width: 10, height: 10 })).toEqual([0, 0]);
  });
});
