import { describe, expect, it } from "vitest";

import { ZCommentOps } from "../engagement/comments.schema";
import { HOSTILE_SNIPPETS } from "../testing/hostile-html";
import { checkWebUrl } from "../web-url";
import { decodeEntities, htmlToOps, imagesAsLinks } from "./html-to-ops";

describe("htmlToOps", () => {
  it("reads paragraphs, line breaks and links of a Disqus message", () => {
    const ops = htmlToOps(
      '<p>First <b>bold</b> line<br>second line</p>\n<p>See <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener" title="x">the   page</a>.</p>',
      "html",
    );
    expect(ops).toEqual([
      { insert: "First bold line\nsecond line\n\nSee " },
      { attributes: { link: "https://example.org/a?b=1&c=2" }, insert: "the page" },
      { insert: "." },
    ]);
  });

  it("drops scripts with their content and keeps no markup", () => {
    const ops = htmlToOps('<p>Hello<script>alert("x")</script> there</p><style>p{}</style>', "html");
    expect(ops).toEqual([{ insert: "Hello there" }]);
  });

  it("keeps WordPress newlines as line breaks, at most one blank line", () => {
    const ops = htmlToOps("Line one\nline two\r\n\r\n\r\n\r\nA new paragraph with &lt;tags&gt; &amp; café", "text");
    expect(ops).toEqual([{ insert: "Line one\nline two\n\nA new paragraph with <tags> & café" }]);
  });

  it("turns mailto links into their text and images into links", () => {
    expect(htmlToOps('Write to <a href="mailto:ed@example.com">the editor</a>', "html")).toEqual([
      { insert: "Write to the editor" },
    ]);
    expect(htmlToOps('Look: <img src="https://img.example/cat.png" alt="cat">', "html")).toEqual([
      { insert: "Look: " },
      { attributes: { link: "https://img.example/cat.png" }, insert: "[image]" },
    ]);
    expect(imagesAsLinks('<img alt="x">')).toBe("");
  });

  it("lists items on lines of their own", () => {
    expect(htmlToOps("<p>Two things:</p><ul><li>one</li><li>two</li></ul>", "html")).toEqual([
      { insert: "Two things:\n\n• one\n• two" },
    ]);
  });

  it("drops control characters and keeps non-ASCII text", () => {
    expect(htmlToOps("Zoë \u0007says\u0085 日本語 👍", "html")).toEqual([{ insert: "Zoë says 日本語 👍" }]);
  });

  it("answers nothing for a message with nothing readable", () => {
    expect(htmlToOps("<script>x</script>  <p> </p>", "html")).toEqual([]);
    expect(htmlToOps("", "text")).toEqual([]);
  });

  it("keeps every word and address when links are too many for one comment", () => {
    const html = Array.from({ length: 40 }, (_, i) => `<a href="https://e.example/${i}">l${i}</a>`).join(" ");
    const ops = htmlToOps(html, "html");
    expect(ops.length).toBeLessThanOrEqual(49);
    const text = ops.map((op) => (typeof op.insert === "string" ? op.insert : "")).join("");
    for (let i = 0; i < 40; i++) expect(text).toContain(`l${i}`);
    expect(text).toContain("l39 (https://e.example/39)");
  });

  it("never lets a hostile snippet through as anything but text and http(s) links", () => {
    for (const snippet of HOSTILE_SNIPPETS) {
      const ops = htmlToOps(`<p>before ${snippet} after</p>`, "html");
      expect(ZCommentOps.safeParse(ops.length ? ops : [{ insert: "x" }]).success).toBe(true);
      for (const op of ops) {
        if ("attributes" in op && "link" in op.attributes) expect(checkWebUrl(op.attributes.link).ok).toBe(true);
      }
    }
  });

  it("decodes numeric entities but not broken ones", () => {
    expect(decodeEntities("&#233;&#x1F44D;&#xD800;&bogus;")).toBe("é👍&#xD800;&bogus;");
  });
});
