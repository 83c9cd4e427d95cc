/**
 * The shapes of real exports' bodies (the WordPress theme unit test data's structures, written
 * again here): tables, nested lists in classic-editor text, nested sections and Gutenberg
 * group/columns blocks, preformatted text, media, captioned embeds, and every shortcode a post
 * may carry. None loses its text, its order or its shape, and no shortcode reaches readers.
 */
import { describe, expect, it } from "vitest";

import { htmlToElements, type HtmlToElementsOptions } from "./html-to-elements";
import { expandShortcodes } from "./shortcodes";

function convert(html: string, options: HtmlToElementsOptions = {}) {
  return htmlToElements(html, { ...options, newId: () => "id" }).map(({ id: _id, ...rest }) => rest);
}
const text = (html: string, subtype: string | null = null) => ({ type: "text", subtype, metadata: {}, text: html });

describe("tables", () => {
  it("makes a classic table one table element, head and body rows kept, not one paragraph per cell", () => {
    const html = `<h2>Tables</h2>
<table>
<tbody>
<tr>
<th>Employee</th>
<th>Salary</th>
</tr>
<tr>
<th><a href="http://example.org/">John Doe</a></th>
<td>$1</td>
</tr>
<tr>
<td colspan="2" style="color:red">Because that's all he needed.</td>
</tr>
</tbody>
</table>
After the table.`;
    expect(convert(html, { autop: true })).toEqual([
      text("<h2>Tables</h2>"),
      text(
        `<table><tbody><tr><th>Employee</th><th>Salary</th></tr><tr><th><a href="http://example.org/">John Doe</a></th><td>$1</td></tr><tr><td colspan="2">Because that's all he needed.</td></tr></tbody></table>`,
        "table",
      ),
      text("<p>After the table.</p>"),
    ]);
  });

  it("keeps a Gutenberg table block's caption, head and foot", () => {
    const html = `<!-- wp:table --><figure class="wp-block-table"><table><thead><tr><th>Header one</th><th>Header two</th></tr></thead><tbody><tr><td>cell</td><td>cell two</td></tr></tbody><tfoot><tr><td>Footer one</td><td>Footer two</td></tr></tfoot></table><figcaption class="wp-element-caption">Table caption</figcaption></figure><!-- /wp:table -->`;
    expect(convert(html)).toEqual([
      text(
        "<table><caption>Table caption</caption><thead><tr><th>Header one</th><th>Header two</th></tr></thead><tbody><tr><td>cell</td><td>cell two</td></tr></tbody><tfoot><tr><td>Footer one</td><td>Footer two</td></tr></tfoot></table>",
        "table",
      ),
    ]);
  });

  it("reads a layout table (an image in a cell) block by block, its image kept", () => {
    const out = convert(
      `<table><tr><td><img src="https://i.example/a.jpg"></td><td><p>Beside it</p></td></tr></table>`,
    );
    expect(out.map((e) => e.type)).toEqual(["image", "text"]);
  });
});

describe("nesting", () => {
  it("keeps nested sections, divs and Gutenberg group and columns blocks in order, no text lost", () => {
    const html = `<!-- wp:group --><div class="wp-block-group"><section><h2>Group heading</h2><div><p>Deep <em>one</em></p>loose text</div></section>
<!-- wp:columns --><div class="wp-block-columns"><!-- wp:column --><div class="wp-block-column"><p>Left</p><ul><li>a<ul><li>a.1</li></ul></li></ul></div><!-- /wp:column -->
<!-- wp:column --><div class="wp-block-column"><blockquote><p>Right quote</p><cite>Someone</cite></blockquote><figure class="wp-block-image"><img src="https://i.example/c.jpg"><figcaption>Cap</figcaption></figure></div><!-- /wp:column --></div><!-- /wp:columns --></div><!-- /wp:group -->
<p>After</p>`;
    const out = convert(html);
    expect(out.map((e) => [e.type, e.text ?? e.title ?? ""])).toEqual([
      ["text", "<h2>Group heading</h2>"],
      ["text", "<p>Deep <em>one</em></p>"],
      ["text", "<p>loose text</p>"],
      ["text", "<p>Left</p>"],
      ["text", "<ul><li>a<ul><li>a.1</li></ul></li></ul>"],
      ["blockquote", "<p>Right quote</p>"],
      ["image", "Cap"],
      ["text", "<p>After</p>"],
    ]);
  });

  it("keeps nested and mixed lists of classic-editor text whole, with no line breaks inside", () => {
    const html = `Nested lists are a corner case
<ol>
	<li>ordered item</li>
	<li>ordered item
<ul>
	<li><strong>unordered</strong></li>
</ul>
</li>
</ol>
Text after`;
    expect(convert(html, { autop: true })).toEqual([
      text("<p>Nested lists are a corner case</p>"),
      text(
        "<ol>\n<li>ordered item</li>\n<li>ordered item\n<ul>\n<li><strong>unordered</strong></li>\n</ul>\n</li>\n</ol>",
      ),
      text("<p>Text after</p>"),
    ]);
  });

  it("keeps a preformatted block's lines, <br> ones included", () => {
    expect(convert(`<pre class="wp-block-preformatted">The Road<br><br>Robert Frost<br>Two roads</pre>`)).toEqual([
      text("<p>The Road<br><br>Robert Frost<br>Two roads</p>"),
    ]);
  });

  it("keeps an embed's caption and makes audio and video an embed or a file", () => {
    const out = convert(
      `<figure class="wp-block-embed is-provider-youtube"><div class="wp-block-embed__wrapper">
https://www.youtube.com/watch?v=SQEQr7c0-dw
</div><figcaption>Wide width YouTube</figcaption></figure>
<figure class="wp-block-audio"><audio controls src="https://media.example/a.mp3"></audio></figure>
<video><source src="https://www.youtube.com/watch?v=SQEQr7c0-dw"></video>`,
    );
    expect(out).toEqual([
      { type: "youtube-video", subtype: null, metadata: {}, url: "https://www.youtube.com/watch?v=SQEQr7c0-dw" },
      text("<p><em>Wide width YouTube</em></p>"),
      { type: "file", subtype: null, metadata: {}, "file-url": "https://media.example/a.mp3" },
      { type: "youtube-video", subtype: null, metadata: {}, url: "https://www.youtube.com/watch?v=SQEQr7c0-dw" },
    ]);
  });
});

describe("shortcodes", () => {
  const images = new Map([
    ["7", { url: "https://i.example/7.jpg", caption: "Seven", alt: "7" }],
    ["8", { url: "https://i.example/8.jpg" }],
  ]);
  const options = (unknown = new Set<string>()): HtmlToElementsOptions => ({
    autop: true,
    attachment: (id) => images.get(id),
    attached: () => [...images.values()],
    unknownShortcodes: unknown,
  });

  it("makes [caption] an image with its caption, the attribute form too", () => {
    const out = convert(
      `[caption id="attachment_1" align="alignnone" width="300"]<img src="https://i.example/c.jpg" alt="c"> A caption[/caption]
[caption caption="Old style"]<img src="https://i.example/d.jpg">[/caption]`,
      options(),
    );
    expect(out.map((e) => [e.type, e["image-s3-key"], e.title])).toEqual([
      ["image", "https://i.example/c.jpg", "A caption"],
      ["image", "https://i.example/d.jpg", "Old style"],
    ]);
  });

  it("makes [gallery ids] a gallery of those attachments and [gallery] one of the post's attached images", () => {
    const out = convert(`[gallery columns="2" ids="8,7"]\n\n[gallery]`, options());
    const keys = (e: (typeof out)[number]) => (e["story-elements"] ?? []).map((i) => i["image-s3-key"]);
    expect(out.map((e) => [e.type, e.subtype, keys(e)])).toEqual([
      ["composite", "image-gallery", ["https://i.example/8.jpg", "https://i.example/7.jpg"]],
      ["composite", "image-gallery", ["https://i.example/7.jpg", "https://i.example/8.jpg"]],
    ]);
  });

  it("makes [embed], [youtube], [video], [audio] and [tweet] embeds or files", () => {
    const out = convert(
      `[embed]https://www.youtube.com/watch?v=SQEQr7c0-dw[/embed]
[youtube=https://www.youtube.com/watch?v=dQw4w9WgXcQ]
[video width="640" mp4="https://media.example/v.mp4"][/video]
[audio https://media.example/a.mp3]
[tweet https://twitter.com/nacin/status/319508408669708289]`,
      options(),
    );
    expect(out.map((e) => [e.type, e.url ?? e["file-url"]])).toEqual([
      ["youtube-video", "https://www.youtube.com/watch?v=SQEQr7c0-dw"],
      ["youtube-video", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"],
      ["file", "https://media.example/v.mp4"],
      ["file", "https://media.example/a.mp3"],
      ["jsembed", "https://twitter.com/nacin/status/319508408669708289"],
    ]);
  });

  it("strips unknown shortcodes, keeping their text and naming them; bracketed prose stays", () => {
    const unknown = new Set<string>();
    const out = convert(
      `[toc]\n\n[su_note color="#fff"]Read this first.[/su_note]\n\nHe said [sic] it was a [simple boat]. [[gallery]] is how you write it.\n\n[contact-form-7 id="12" /]`,
      options(unknown),
    );
    expect(out).toEqual([
      text("<p>Read this first.</p>"),
      text("<p>He said [sic] it was a [simple boat]. [gallery] is how you write it.</p>"),
    ]);
    expect([...unknown].sort()).toEqual(["contact-form-7", "su_note", "toc"]);
  });

  it("leaves text without shortcodes as it is", () => {
    expect(expandShortcodes("<p>No brackets here</p>")).toBe("<p>No brackets here</p>");
  });
});
