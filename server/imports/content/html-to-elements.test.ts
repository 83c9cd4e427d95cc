import { describe, expect, it } from "vitest";

import { autop, htmlToElements, htmlToPlainText, type HtmlToElementsOptions } from "./html-to-elements";

/** Elements without ids. */
function convert(html: string, options: HtmlToElementsOptions = {}) {
  return htmlToElements(html, { ...options, newId: () => "id" }).map(({ id: _id, ...rest }) => rest);
}

const text = (html: string) => ({ type: "text", subtype: null, metadata: {}, text: html });

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("htmlToElements", () => {
  it("makes a text element of each paragraph, heading and list, dropping block comments", () => {
    expect(
      convert(
        `<!-- wp:paragraph --><p>One &amp; <a href="https://a.example/">two</a> — café</p><!-- /wp:paragraph -->
         <h1>Big</h1><h4>Small</h4><ol><li>a</li><li>b</li></ol><p>  </p>`,
      ),
    ).toEqual([
      text('<p>One &amp; <a href="https://a.example/">two</a> — café</p>'),
      text("<h2>Big</h2>"),
      text("<h3>Small</h3>"),
      text("<ol><li>a</li><li>b</li></ol>"),
    ]);
  });

  it("reads classic-editor text as wpautop does: blank lines are paragraphs, newlines line breaks", () => {
    expect(autop("a\nb\n\n\nc\n\n<h2>T</h2>")).toBe("<p>a<br>\nb</p>\n<p>c</p>\n<h2>T</h2>");
    expect(convert("First\nsecond\n\nThird <em>one</em>", { autop: true })).toEqual([
      text("<p>First<br>\nsecond</p>"),
      text("<p>Third <em>one</em></p>"),
    ]);
  });

  it("gathers inline content outside blocks into paragraphs", () => {
    expect(convert("Loose <b>text</b><div>inside<p>para</p>tail</div>")).toEqual([
      text("<p>Loose <b>text</b></p>"),
      text("<p>inside</p>"),
      text("<p>para</p>"),
      text("<p>tail</p>"),
    ]);
  });

  it("makes images with their alt, caption and size; a linked image too; not a relative or data: image", () => {
    expect(
      convert(
        `<figure class="wp-block-image"><img src="https://i.example/a.jpg?x=1&amp;y=2" alt="An &quot;A&quot;" width="640" height="480"><figcaption>The <em>a</em></figcaption></figure>
         <p><a href="https://i.example/b.jpg"><img src="https://i.example/b.jpg"></a></p>
         <img src="/relative.jpg"><img src="data:image/png;base64,AAAA">`,
      ),
    ).toEqual([
      {
        type: "image",
        subtype: null,
        metadata: { alt: 'An "A"' },
        "image-s3-key": "https://i.example/a.jpg?x=1&y=2",
        "image-metadata": { width: 640, height: 480 },
        title: "The <em>a</em>",
      },
      { type: "image", subtype: null, metadata: {}, "image-s3-key": "https://i.example/b.jpg", title: "" },
    ]);
  });

  it("makes a gallery of a wp:gallery block, a Ghost gallery card and a [gallery] shortcode", () => {
    const image = (url: string, title = "") => ({
      id: "id",
      type: "image",
      subtype: null,
      metadata: {},
      "image-s3-key": url,
      title,
    });
    expect(
      convert(
        `<figure class="wp-block-gallery"><figure class="wp-block-image"><img src="https://i.example/1.jpg"><figcaption>One</figcaption></figure><figure class="wp-block-image"><img src="https://i.example/2.jpg"></figure></figure>`,
      ),
    ).toEqual([
      {
        type: "composite",
        subtype: "image-gallery",
        metadata: {},
        title: "",
        "story-elements": [image("https://i.example/1.jpg", "One"), image("https://i.example/2.jpg")],
      },
    ]);
    expect(
      convert(
        `<figure class="kg-card kg-gallery-card kg-width-wide"><div class="kg-gallery-container"><div class="kg-gallery-row"><div class="kg-gallery-image"><img src="https://i.example/3.jpg"></div></div></div><figcaption>Ghost</figcaption></figure>`,
      ),
    ).toEqual([
      {
        type: "composite",
        subtype: "image-gallery",
        metadata: {},
        title: "Ghost",
        "story-elements": [image("https://i.example/3.jpg")],
      },
    ]);
    const attachments: Record<string, { url: string; caption?: string }> = {
      "7": { url: "https://i.example/7.jpg", caption: "Seven & more" },
      "8": { url: "https://i.example/8.jpg" },
    };
    expect(
      convert(`Before\n\n[gallery columns="2" ids="7, 8,404"]\n\nAfter`, {
        autop: true,
        attachment: (id) => attachments[id],
      }),
    ).toEqual([
      text("<p>Before</p>"),
      {
        type: "composite",
        subtype: "image-gallery",
        metadata: {},
        title: "",
        "story-elements": [image("https://i.example/7.jpg", "Seven &amp; more"), image("https://i.example/8.jpg")],
      },
      text("<p>After</p>"),
    ]);
    // A gallery none of whose images is known is left out.
    expect(convert(`[gallery ids="404"]`, { autop: true, attachment: () => undefined })).toEqual([]);
  });

  it("reads a [caption] shortcode as a captioned image", () => {
    expect(
      convert(
        `[caption id="attachment_5" width="300"]<img src="https://i.example/5.jpg" alt="Five"> The five[/caption]`,
        {
          autop: true,
        },
      ),
    ).toEqual([
      {
        type: "image",
        subtype: null,
        metadata: { alt: "Five" },
        "image-s3-key": "https://i.example/5.jpg",
        title: "The five",
      },
    ]);
  });

  it("makes embeds of YouTube, X/Twitter and Instagram: iframes, blocks, blockquotes, a lone URL, [embed]", () => {
    const youtube = {
      type: "youtube-video",
      subtype: null,
      metadata: {},
      url: "https://www.youtube.com/embed/abcdefghijk",
    };
    expect(convert(`<iframe src="https://www.youtube.com/embed/abcdefghijk" width="560"></iframe>`)).toEqual([youtube]);
    expect(
      convert(
        `<figure class="wp-block-embed is-provider-twitter"><div class="wp-block-embed__wrapper">\nhttps://twitter.com/a/status/123\n</div></figure>`,
      ),
    ).toEqual([{ type: "jsembed", subtype: "tweet", metadata: {}, url: "https://twitter.com/a/status/123" }]);
    expect(
      convert(
        `<blockquote class="twitter-tweet"><p>Hi</p>— A (@a) <a href="https://x.com/a/status/456?ref=x">Jan 1</a></blockquote><script src="https://platform.twitter.com/widgets.js"></script>`,
      ),
    ).toEqual([{ type: "jsembed", subtype: "tweet", metadata: {}, url: "https://x.com/a/status/456?ref=x" }]);
    expect(
      convert(
        `<blockquote class="instagram-media" data-instgrm-permalink="https://www.instagram.com/p/Abc_1/?utm_source=ig_embed"><a href="https://www.instagram.com/p/Abc_1/">A post</a></blockquote>`,
      ),
    ).toEqual([
      {
        type: "jsembed",
        subtype: "instagram",
        metadata: {},
        url: "https://www.instagram.com/p/Abc_1/?utm_source=ig_embed",
      },
    ]);
    expect(
      convert("Intro\n\nhttps://youtu.be/abcdefghijk\n\n[embed]https://x.com/b/status/9[/embed]", { autop: true }),
    ).toEqual([
      text("<p>Intro</p>"),
      { type: "youtube-video", subtype: null, metadata: {}, url: "https://youtu.be/abcdefghijk" },
      { type: "jsembed", subtype: "tweet", metadata: {}, url: "https://x.com/b/status/9" },
    ]);
  });

  it("links to an embed of another provider, and drops one without a web address", () => {
    expect(
      convert(
        `<iframe src="https://maps.example/embed?q=1&amp;z=2"></iframe><iframe src="javascript:alert(1)"></iframe>`,
      ),
    ).toEqual([
      text('<p><a href="https://maps.example/embed?q=1&amp;z=2">https://maps.example/embed?q=1&amp;z=2</a></p>'),
    ]);
  });

  it("keeps a quote with its attribution, code as lines, and drops rules and scripts", () => {
    expect(
      convert(
        `<blockquote class="wp-block-quote"><p>Said.</p><cite>— Someone</cite></blockquote><hr><pre><code>a &lt; b\n  c\n</code></pre><script>x()</script><style>p{}</style>`,
      ),
    ).toEqual([
      {
        type: "blockquote",
        subtype: null,
        metadata: { content: "<p>Said.</p>", attribution: "Someone" },
        text: "<p>Said.</p>",
      },
      text("<p>a &lt; b<br>  c</p>"),
    ]);
  });

  it("reads malformed HTML without losing its text", () => {
    const elements = convert(`<p>Open <b>bold <i>both</p><p>Next</div><table><tr><td>Cell</td></tr></table>`);
    const all = elements.map((e) => ("text" in e ? e.text : "")).join(" ");
    expect(all).toContain("Open");
    expect(all).toContain("both");
    expect(all).toContain("Next");
    expect(all).toContain("Cell");
    expect(elements.every((e) => e.type === "text")).toBe(true);
  });
});

describe("htmlToPlainText", () => {
  it("reads a title or an excerpt as the text it shows", () => {
    expect(htmlToPlainText("Market day &amp; <em>night</em>&#8217;s  end")).toBe("Market day & night’s end");
    expect(htmlToPlainText("<script>alert(1)</script> A\n <b>b</b> ")).toBe("A b");
    expect(htmlToPlainText("a < b")).toBe("a < b");
  });
});
