import { getSchema } from "@tiptap/core";
import { DOMSerializer, type Schema } from "@tiptap/pm/model";
import { describe, expect, it } from "vitest";

// eslint-disable-next-line no-restricted-imports -- the test holds the editor to the server's one allow-list
import { cleanHtml } from "@/server/publishing/editorial/sanitize";

import {
  cleanPastedHtml,
  isAllowedLinkHref,
  linkHrefFromInput,
  normaliseEditorHtml,
  richTextExtensions,
} from "./rich-text-schema";

// ─── A minimal document for ProseMirror's DOMSerializer (the tests run without a DOM) ────────

type FakeNode = FakeElement | FakeText | FakeFragment;
class FakeText {
  constructor(public data: string) {}
  nodeType = 3;
}
class FakeFragment {
  nodeType = 11;
  childNodes: FakeNode[] = [];
  appendChild(child: FakeNode) {
    this.childNodes.push(child);
    return child;
  }
}
class FakeElement extends FakeFragment {
  override nodeType = 1;
  attributes = new Map<string, string>();
  constructor(public tagName: string) {
    super();
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, String(value));
  }
}
const fakeDocument = {
  createElement: (tag: string) => new FakeElement(tag),
  createElementNS: (_: string, tag: string) => new FakeElement(tag),
  createTextNode: (text: string) => new FakeText(text),
  createDocumentFragment: () => new FakeFragment(),
};

/** What a browser's innerHTML writes for these nodes (the editor's getHTML is innerHTML). */
function innerHtml(node: FakeNode): string {
  if (node instanceof FakeText)
    return node.data
      .replace(/&/g, "&amp;")
      .replace(/\u00a0/g, "&nbsp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;");
  const inner = node.childNodes.map(innerHtml).join("");
  if (!(node instanceof FakeElement)) return inner;
  const attrs = [...node.attributes]
    .map(
      ([k, v]) =>
        ` ${k}="${v
          .replace(/&/g, "&amp;")
          .replace(/\u00a0/g, "&nbsp;")
          .replace(/"/g, "&quot;")}"`,
    )
    .join("");
  return node.tagName === "br" ? `<br${attrs}>` : `<${node.tagName}${attrs}>${inner}</${node.tagName}>`;
}

const schema: Schema = getSchema(richTextExtensions());

function serialise(doc: unknown): string {
  const node = schema.nodeFromJSON(doc);
  const fragment = DOMSerializer.fromSchema(schema).serializeFragment(node.content, {
    document: fakeDocument as unknown as Document,
  });
  return normaliseEditorHtml(innerHtml(fragment as unknown as FakeFragment));
}

const text = (t: string, marks?: unknown[]) => ({ type: "text", text: t, ...(marks ? { marks } : {}) });
const p = (...content: unknown[]) => ({ type: "paragraph", content });
const doc = (...content: unknown[]) => ({ type: "doc", content });
const link = (href: string) => ({ type: "link", attrs: { href } });

describe("the editor's schema", () => {
  it("knows only the allow-list's nodes and marks", () => {
    expect(Object.keys(schema.nodes).sort()).toEqual(
      [
        "blockquote",
        "bulletList",
        "doc",
        "hardBreak",
        "heading",
        "listItem",
        "orderedList",
        "paragraph",
        "text",
      ].sort(),
    );
    expect(Object.keys(schema.marks).sort()).toEqual(["bold", "italic", "link"]);
  });

  const docs: [string, unknown, string][] = [
    ["a paragraph", doc(p(text("Fish & chips <3"))), "<p>Fish &amp; chips &lt;3</p>"],
    [
      "bold, italic and a link",
      doc(
        p(
          text("Hello ", [{ type: "bold" }]),
          text("world", [{ type: "italic" }]),
          text(" see "),
          text("this", [link("https://example.org/a?b=1&c=2")]),
        ),
      ),
      '<p><strong>Hello </strong><em>world</em> see <a href="https://example.org/a?b=1&amp;c=2">this</a></p>',
    ],
    [
      "a mailto link",
      doc(p(text("mail", [link("mailto:desk@example.org")]))),
      '<p><a href="mailto:desk@example.org">mail</a></p>',
    ],
    [
      "headings h2 and h3",
      doc(
        { type: "heading", attrs: { level: 2 }, content: [text("Two")] },
        { type: "heading", attrs: { level: 3 }, content: [text("Three")] },
      ),
      "<h2>Two</h2><h3>Three</h3>",
    ],
    [
      "lists",
      doc(
        { type: "bulletList", content: [{ type: "listItem", content: [p(text("one"))] }] },
        { type: "orderedList", attrs: { start: 1 }, content: [{ type: "listItem", content: [p(text("two"))] }] },
      ),
      "<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol>",
    ],
    [
      "a quote with a line break and a non-breaking space",
      doc({ type: "blockquote", content: [p(text("a\u00a0b"), { type: "hardBreak" }, text("c"))] }),
      "<blockquote><p>a\u00a0b<br />c</p></blockquote>",
    ],
    ["an empty document", doc(p()), ""],
    [
      "a list followed by the editor's trailing empty paragraph",
      doc({ type: "bulletList", content: [{ type: "listItem", content: [p(text("x"))] }] }, p(), p()),
      "<ul><li><p>x</p></li></ul>",
    ],
    ["an empty paragraph between two", doc(p(text("a")), p(), p(text("b"))), "<p>a</p><p></p><p>b</p>"],
  ];

  it.each(docs)("serialises %s exactly as the server keeps it", (_, json, expected) => {
    const html = serialise(json);
    expect(html).toBe(expected);
    expect(cleanHtml(html)).toBe(html);
  });
});

describe("links", () => {
  it.each([
    ["example.org/x", "https://example.org/x"],
    ["https://Example.org", "https://example.org/"],
    ["desk@example.org", "mailto:desk@example.org"],
    ["mailto:desk@example.org", "mailto:desk@example.org"],
  ])("%s → %s", (input, href) => expect(linkHrefFromInput(input)).toBe(href));

  it.each([
    "javascript:alert(1)",
    "data:text/html,x",
    "/relative",
    "//evil.example",
    "https://a b.example",
    "",
    "ftp://x.example",
  ])("refuses %j", (input) => expect(linkHrefFromInput(input)).toBeNull());

  it("agrees with the sanitiser about which hrefs stay", () => {
    for (const href of ["https://example.org/", "mailto:a@b.example", "javascript:alert(1)", "http://u:p@x.example/"]) {
      const kept = cleanHtml(`<a href="${href}">x</a>`).includes("href=");
      expect(isAllowedLinkHref(href)).toBe(kept);
    }
  });
});

describe("cleanPastedHtml", () => {
  it("drops Google Docs' bold-looking wrapper and turns styled spans into strong and em", () => {
    const html =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-4f1c2a3b-7fff-1234-abcd-0123456789ab">' +
      '<p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;">Plain </span>' +
      '<span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;font-weight:700;font-style:normal;">bold</span>' +
      '<span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:italic;"> italic</span></p>' +
      '<h1 dir="ltr" style="line-height:1.38;"><span style="font-size:20pt;font-weight:400;">Title</span></h1>' +
      '<ul style="margin-top:0;margin-bottom:0;"><li dir="ltr" style="list-style-type:disc;"><p dir="ltr"><span style="font-weight:400;">item</span></p></li></ul>' +
      "</b><br>";
    const out = cleanPastedHtml(html);
    expect(out).not.toMatch(/<b\b|docs-internal-guid|<span|<meta|font-weight/);
    expect(out).toContain("Plain <strong>bold</strong><em> italic</em>");
    expect(out).toContain("<h2>Title</h2>");
    expect(out).toContain(">item</p></li></ul>");
    // The wrapper's text is not bold: no strong around "Plain".
    expect(out).not.toMatch(/<strong>[^<]*Plain/);
  });

  it("removes Word's markup and makes its list paragraphs lists", () => {
    const html = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft Word 15"><style><!-- p.MsoNormal {mso-style-parent:""; margin:0cm;} --></style><!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:AllowPNG/></o:OfficeDocumentSettings></xml><![endif]--></head><body lang=EN-GB>
<!--StartFragment--><p class=MsoNormal>Intro with <b>bold</b> and <i>italic</i> and <span style='font-weight:bold;mso-bidi-font-weight:normal'>styled</span><o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>First<o:p></o:p></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>Second<o:p></o:p></p>
<p class=MsoListParagraphCxSpFirst style='mso-list:l1 level1 lfo2'><![if !supportLists]><span>1.<span>&nbsp;&nbsp; </span></span><![endif]>Numbered<o:p></o:p></p>
<!--EndFragment--></body></html>`;
    const out = cleanPastedHtml(html);
    expect(out).not.toMatch(/o:p|mso-style|<style|<xml|supportLists|StartFragment|<span|·/i);
    expect(out).toContain("Intro with <strong>bold</strong> and <i>italic</i> and <strong>styled</strong>");
    expect(out).toMatch(/<ul><li>First<\/li>\s*<li>Second<\/li>\s*<\/ul>\s*<ol><li>Numbered<\/li><\/ol>/);
  });

  it("keeps plain HTML as it is", () => {
    const html = '<p>A <strong>b</strong> <a href="https://example.org/">c</a></p><ul><li>d</li></ul>';
    expect(cleanPastedHtml(html)).toBe(html);
  });
});
