import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import type { ErrorDetail } from "../../errors";
import { HOSTILE_HTML, HOSTILE_SNIPPETS, HOSTILE_URLS, SAFE_HTML, unsafeStrings } from "../../testing/hostile-html";
import { STORY_ELEMENT_TYPES, type TStoryElement } from "../cards.schema";
import { cleanCardFields, cleanHtml, cleanMetadataOrThrow, cleanStoryElement } from "./sanitize";

const html = `${SAFE_HTML}\n${HOSTILE_HTML}`;

describe("cleanHtml (the allow-list)", () => {
  it("removes every hostile snippet and keeps safe markup", () => {
    const leaks = HOSTILE_SNIPPETS.flatMap((snippet) => unsafeStrings(cleanHtml(snippet), snippet));
    expect(leaks).toEqual([]);
    expect(cleanHtml(SAFE_HTML)).toBe(SAFE_HTML);
  });

  it("keeps anchors' text but not an unsafe href, in any spelling", () => {
    expect(cleanHtml('<a href="&#x6A;avascript&colon;alert(1)">x</a>')).toBe("<a>x</a>");
    expect(cleanHtml('<a href="//evil.example/">x</a>')).toBe("<a>x</a>");
    expect(cleanHtml('<a href="https://example.org/?a=1&amp;b=2" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.org/?a=1&amp;b=2">x</a>',
    );
  });

  it("is idempotent, so re-saving a card does not change it", () => {
    const once = cleanHtml(html);
    expect(cleanHtml(once)).toBe(once);
    expect(cleanHtml("Fish & chips")).toBe("Fish &amp; chips");
    expect(cleanHtml("Fish &amp; chips")).toBe("Fish &amp; chips");
  });

  it("keeps the class of embed markup from known providers only", () => {
    expect(
      cleanHtml('<blockquote class="twitter-tweet paywall"><a href="https://x.com/a/status/1">t</a></blockquote>'),
    ).toBe('<blockquote class="twitter-tweet"><a href="https://x.com/a/status/1">t</a></blockquote>');
    expect(cleanHtml('<p class="twitter-tweet">x</p>')).toBe("<p>x</p>");
  });
});

describe("cleanStoryElement", () => {
  it.each(STORY_ELEMENT_TYPES)("makes every field of a %s element safe", (type) => {
    const element = {
      id: randomUUID(),
      type,
      subtype: null,
      text: html,
      title: html,
      description: html,
      "image-attribution": html,
      "embed-js": Buffer.from(html).toString("base64"),
      "extra-field": html,
      metadata: { content: html, attribution: html, nested: { list: [html, { caption: html }] } },
    } as TStoryElement;
    const details: ErrorDetail[] = [];
    const cleaned = cleanStoryElement(element, "el", details);
    expect(details).toEqual([]);
    expect(unsafeStrings(cleaned)).toEqual([]);
    expect(cleaned).toMatchObject({ id: element.id, type, subtype: null });
    expect(cleaned.text).toContain('<a href="https://example.org/ok">ok</a>');
  });

  it("refuses unsafe links under every link-bearing key, naming the field, and normalises safe ones", () => {
    const keys = ["url", "embed-url", "page-url", "file-url", "href", "src", "link", "cta_url", "linkedStoryUrl"];
    const missed: string[] = [];
    for (const key of keys) {
      for (const url of HOSTILE_URLS) {
        for (const [where, element] of [
          [key, { [key]: url }],
          [`metadata.${key}`, { metadata: { [key]: url } }],
          [`metadata.deep.${key}.0`, { metadata: { deep: { [key]: [url] } } }],
        ] as const) {
          const details: ErrorDetail[] = [];
          const base = { id: randomUUID(), type: "text" as const, subtype: null, metadata: {} };
          cleanStoryElement({ ...base, ...element }, "el", details);
          if (!details.some((d) => d.field === `el.${where}`)) missed.push(`${where} = ${JSON.stringify(url)}`);
        }
      }
    }
    expect(missed).toEqual([]);
    const details: ErrorDetail[] = [];
    const cleaned = cleanStoryElement(
      { id: randomUUID(), type: "text", subtype: null, "page-url": "HTTPS://Example.ORG", metadata: { link: "" } },
      "el",
      details,
    );
    expect(details).toEqual([]);
    expect(cleaned).toMatchObject({ "page-url": "https://example.org/", metadata: { link: "" } });
  });

  it("refuses embed-js that is not base64", () => {
    const details: ErrorDetail[] = [];
    const element = {
      id: randomUUID(),
      type: "image",
      subtype: "q-and-a",
      "image-s3-key": "1/2026/01/a b.png",
      "embed-js": "<script>alert(1)</script>",
      metadata: {},
    } as TStoryElement;
    const cleaned = cleanStoryElement(element, "el", details);
    expect(cleaned).toMatchObject({ subtype: "q-and-a", "image-s3-key": "1/2026/01/a b.png" });
    expect(details).toEqual([{ field: "el.embed-js", issue: "must be base64-encoded embed markup" }]);
  });
});

describe("identifiers", () => {
  it("refuses markup in an identifier (subtype, image key, video id, card status), naming the field", () => {
    const missed: string[] = [];
    for (const key of ["subtype", "image-s3-key", "video-id", "mime-type"]) {
      for (const value of [
        "<script>alert(1)</script>",
        'x" onerror="alert(1)',
        "a'b",
        "a&b",
        "a`b",
        "a\u0000b",
        "a\nb",
      ]) {
        const details: ErrorDetail[] = [];
        cleanStoryElement(
          { id: randomUUID(), type: "image", subtype: null, metadata: {}, [key]: value },
          "el",
          details,
        );
        if (!details.some((d) => d.field === `el.${key}`)) missed.push(`${key} = ${JSON.stringify(value)}`);
      }
    }
    expect(missed).toEqual([]);
    const details: ErrorDetail[] = [];
    expect(cleanCardFields({ status: "<b>draft</b>", metadata: {} }, "cards.0", details)).toMatchObject({
      status: "<b>draft</b>",
    });
    expect(details).toEqual([{ field: "cards.0.status", issue: expect.stringMatching(/identifier/) as unknown }]);
  });

  it("keeps ordinary identifiers as they are", () => {
    const details: ErrorDetail[] = [];
    const element = {
      id: randomUUID(),
      type: "image",
      subtype: "also-read",
      "image-s3-key": "1/2026/01/photo one.png",
      "video-id": "dQw4w9WgXcQ",
      metadata: {},
    } as TStoryElement;
    expect(cleanStoryElement(element, "el", details)).toEqual(element);
    expect(cleanCardFields({ status: "draft", metadata: { x: "a & b" } }, "cards.0", details)).toEqual({
      status: "draft",
      metadata: { x: "a &amp; b" },
    });
    expect(details).toEqual([]);
  });
});

describe("cleanMetadataOrThrow", () => {
  it("refuses metadata nested deeper than it walks", () => {
    let deep: Record<string, unknown> = { text: "<script>x</script>" };
    for (let i = 0; i < 40; i++) deep = { deep };
    expect(() => cleanMetadataOrThrow(deep, "metadata")).toThrow(
      expect.objectContaining({ code: "BAD_REQUEST" }) as Error,
    );
  });
});
