import fc from "fast-check";
import { DomUtils, parseDocument } from "htmlparser2";
import { describe, expect, it } from "vitest";

import { escapeHtml, escapeHtmlText } from "./html";

/** What an HTML parser reads as the text of a paragraph holding `html`. */
const decoded = (html: string) => DomUtils.textContent(parseDocument(`<p>${html}</p>`));

describe("the HTML escaper", () => {
  it("escapes the five characters HTML gives a meaning", () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
    );
    expect(escapeHtmlText(`<b>"Tom" & 'Jerry'</b>`)).toBe(`&lt;b&gt;"Tom" &amp; 'Jerry'&lt;/b&gt;`);
  });

  it("leaves no raw < > & \" ' (text only: < > &), and an HTML parser reads the text back", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const escaped = escapeHtml(text);
        expect(escaped.replace(/&(amp|lt|gt|quot|#39);/g, "")).not.toMatch(/[<>&"']/);
        expect(decoded(escaped)).toBe(text);
        const textOnly = escapeHtmlText(text);
        expect(textOnly.replace(/&(amp|lt|gt);/g, "")).not.toMatch(/[<>&]/);
        expect(decoded(textOnly)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});
