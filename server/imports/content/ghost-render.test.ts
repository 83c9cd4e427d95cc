import { describe, expect, it } from "vitest";

import { ghostBodyHtml } from "./ghost-render";

describe("ghostBodyHtml", () => {
  it("takes the exported html when there is some", () => {
    expect(ghostBodyHtml({ html: "<p>As exported</p>", lexical: '{"root":{"children":[]}}' })).toEqual({
      html: "<p>As exported</p>",
      skipped: [],
    });
  });

  it("renders Lexical: formats, links, headings, lists, quotes, cards; says which cards it leaves out", () => {
    const lexical = {
      root: {
        children: [
          {
            type: "paragraph",
            children: [
              { type: "text", text: "a < b ", format: 0 },
              { type: "text", text: "bold", format: 1 },
              { type: "text", text: " both", format: 3 },
              { type: "linebreak" },
              { type: "link", url: 'https://e.example/?q="x"', children: [{ type: "text", text: "link", format: 0 }] },
            ],
          },
          { type: "heading", tag: "h3", children: [{ type: "text", text: "Head", format: 0 }] },
          {
            type: "list",
            listType: "bullet",
            children: [{ type: "listitem", children: [{ type: "text", text: "i" }] }],
          },
          { type: "quote", children: [{ type: "text", text: "Q" }] },
          { type: "image", src: "https://e.example/i.jpg", altText: "Alt", caption: "Cap" },
          { type: "gallery", images: [{ src: "https://e.example/g.jpg", alt: "G" }], caption: "" },
          { type: "embed", url: "https://youtu.be/abcdefghijk", html: "<iframe></iframe>" },
          { type: "html", html: "<p>raw</p>" },
          { type: "markdown", markdown: "one\n\ntwo <b>" },
          { type: "bookmark", url: "https://e.example/b", metadata: { title: "B & b" } },
          { type: "horizontalrule" },
          { type: "paywall" },
          { type: "toggle" },
        ],
      },
    };
    const rendered = ghostBodyHtml({ lexical: JSON.stringify(lexical) });
    expect(rendered.html.split("\n")).toEqual([
      '<p>a &lt; b <strong>bold</strong><strong><em> both</em></strong><br><a href="https://e.example/?q=&quot;x&quot;">link</a></p>',
      "<h3>Head</h3>",
      "<ul><li>i</li></ul>",
      "<blockquote><p>Q</p></blockquote>",
      '<figure><img src="https://e.example/i.jpg" alt="Alt"><figcaption>Cap</figcaption></figure>',
      '<figure class="kg-gallery-card"><figure><img src="https://e.example/g.jpg" alt="G"></figure></figure>',
      "<p>https://youtu.be/abcdefghijk</p>",
      "<p>raw</p>",
      "<p>one</p><p>two &lt;b&gt;</p>",
      '<p><a href="https://e.example/b">B &amp; b</a></p>',
      "<hr>",
      "<!--members-only-->",
      "",
    ]);
    expect(rendered.skipped).toEqual(["a toggle card"]);
  });

  it("renders Mobiledoc: markups opening and closing, atoms, lists, cards", () => {
    const mobiledoc = {
      version: "0.3.1",
      atoms: [["soft-return", "", {}]],
      markups: [["em"], ["a", ["href", "https://e.example/"]]],
      cards: [
        ["image", { src: "https://e.example/m.jpg", alt: "M", caption: "C" }],
        ["code", { code: "x < 1" }],
        ["signup", {}],
      ],
      sections: [
        [1, "h2", [[0, [], 0, "Title"]]],
        [
          1,
          "p",
          [
            [0, [0], 0, "it "],
            [0, [1], 2, "linked"],
            [0, [], 0, " then"],
          ],
        ],
        [3, "ol", [[[0, [], 0, "one"]], [[0, [], 0, "two"]]]],
        [1, "aside", [[0, [], 0, "Aside"]]],
        [10, 0],
        [10, 1],
        [10, 2],
      ],
    };
    const rendered = ghostBodyHtml({ mobiledoc: JSON.stringify(mobiledoc) });
    expect(rendered.html.split("\n")).toEqual([
      "<h2>Title</h2>",
      '<p><em>it <a href="https://e.example/">linked</a></em> then</p>',
      "<ol><li>one</li><li>two</li></ol>",
      "<blockquote>Aside</blockquote>",
      '<figure><img src="https://e.example/m.jpg" alt="M"><figcaption>C</figcaption></figure>',
      "<pre><code>x &lt; 1</code></pre>",
      "",
    ]);
    expect(rendered.skipped).toEqual(["a signup card"]);
  });

  it("says when the document is not JSON, and gives nothing for an empty post", () => {
    expect(ghostBodyHtml({ lexical: "{not json" })).toEqual({ html: "", skipped: ["its lexical is not JSON"] });
    expect(ghostBodyHtml({ html: null, lexical: null, mobiledoc: null })).toEqual({ html: "", skipped: [] });
  });
});
