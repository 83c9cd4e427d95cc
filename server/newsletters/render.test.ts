import { describe, expect, it } from "vitest";

import { translator } from "@/i18n/translate";

import type { TCard, TStoryElement } from "../publishing/cards.schema";
import { htmlToText, mailHtml, renderElement, sizedImage, type ElementContext } from "./render-elements";
import {
  compileDigestMail,
  compileStoryMail,
  newsletterHeaders,
  parseDesign,
  personalise,
  subjectLine,
  type MailFrame,
} from "./render-mail";

const ctx: ElementContext = {
  imageUrl: (key) => `https://images.example.com/${key}`,
  link: (url) => `https://track.test/?u=${encodeURIComponent(url)}`,
  accent: "#aa0000",
  t: translator("mail", "en"),
};

let n = 0;
const el = (fields: Partial<TStoryElement> & { type: TStoryElement["type"] }): TStoryElement => ({
  id: `00000000-0000-4000-8000-${String(n++).padStart(12, "0")}`,
  subtype: null,
  metadata: {},
  ...fields,
});
const cards = (...elements: TStoryElement[]): TCard[] => [
  { id: "10000000-0000-4000-8000-000000000000", status: "draft", version: 1, metadata: {}, "story-elements": elements },
];

const frame: MailFrame = {
  language: { locale: "en", t: translator("mail", "en") },
  contentLocale: "en",
  newsletterName: "The Briefing",
  publisherName: "The Gazette",
  design: parseDesign({
    accentColor: "#aa0000",
    footer: "1 Press Street\nSpringfield",
    logoUrl: "https://cdn.test/logo.png",
  }),
};

const story = (c: TCard[], headline = "A headline") => ({
  headline,
  subheadline: null,
  summary: null,
  url: "https://news.example.com/a-headline",
  heroImage: null,
  cards: c,
  paywallPoint: 1,
});

const reader = (tag: string) => ({
  link: (url: string) => `https://app.test/api/newsletters/click/${tag}?u=${encodeURIComponent(url)}`,
  unsubscribeUrl: `https://app.test/api/newsletters/unsubscribe/${tag}`,
  openPixelUrl: null,
});

describe("story elements in a mail", () => {
  it("keeps text, headings and lists with inline styles, and drops anything else", () => {
    const html = mailHtml(
      '<h2 class="x" style="color:red">Title</h2><ul><li>one</li></ul><p onclick="x()">Hi <script>alert(1)</script><img src=x></p>',
      ctx,
    );
    expect(html).toContain('<h2 style="margin:24px');
    expect(html).toContain('<ul style="margin:0 0 16px;');
    expect(html).toContain("<li style=");
    expect(html).not.toMatch(/class=|onclick|<script|alert|<img|color:red/);
  });

  it("sends http links through the link function, keeps mailto and drops other schemes", () => {
    const html = mailHtml(
      '<p><a href="https://example.org/a?b=1&amp;c=2">a</a> <a href="mailto:x@example.org">m</a> <a href="javascript:alert(1)">j</a></p>',
      ctx,
    );
    expect(html).toContain(`href="https://track.test/?u=${encodeURIComponent("https://example.org/a?b=1&c=2")}"`);
    expect(html).toContain('href="mailto:x@example.org"');
    expect(html).not.toContain("javascript");
  });

  it("sizes images to at most 600 wide, in proportion", () => {
    expect(sizedImage({ width: 1200, height: 800 })).toEqual({ width: 600, height: 400 });
    expect(sizedImage({ width: 300, height: 200 })).toEqual({ width: 300, height: 200 });
    expect(sizedImage(undefined)).toEqual({ width: 600, height: 338 });
    const image = renderElement(
      el({
        type: "image",
        "image-s3-key": "1/a b.png",
        "image-metadata": { width: 2000, height: 1000 },
        title: "<b>Cap</b>",
      }),
      ctx,
    )!;
    expect(image.html).toContain('src="https://images.example.com/1/a b.png" width="600" height="300"');
    expect(image.html).toContain("Cap");
  });

  it("renders embeds as linked previews, never frames or scripts", () => {
    const youtube = renderElement(el({ type: "youtube-video", "video-id": "dQw4w9WgXcQ", title: "Clip" }), ctx)!;
    expect(youtube.html).toContain(encodeURIComponent("https://www.youtube.com/watch?v=dQw4w9WgXcQ"));
    expect(youtube.html).toContain("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg");
    const tweet = renderElement(el({ type: "jsembed", subtype: "tweet", "tweet-id": "12345" }), ctx)!;
    expect(tweet.html).toContain(encodeURIComponent("https://x.com/i/status/12345"));
    expect(tweet.text).toContain("https://x.com/i/status/12345");
    const insta = renderElement(
      el({
        type: "jsembed",
        subtype: "instagram",
        url: "https://www.instagram.com/p/abc/",
        "embed-js": "PHNjcmlwdD4=",
      }),
      ctx,
    )!;
    expect(insta.html).toContain("Instagram");
    for (const r of [youtube, tweet, insta]) expect(r.html).not.toMatch(/<iframe|<script/i);
    expect(renderElement(el({ type: "youtube-video", "video-id": 'bad id"><script>' }), ctx)).toBeNull();
  });

  it("quotes carry their attribution, escaped", () => {
    const quote = renderElement(
      el({ type: "blockquote", text: "<p>Words &amp; more</p>", metadata: { attribution: "<i>Ada</i> <x>" } }),
      ctx,
    )!;
    expect(quote.html).toContain("Words &amp; more");
    expect(quote.html).toContain("— Ada</p>");
    expect(quote.text).toBe("> Words & more\n> — Ada");
  });

  it("reads HTML as text", () => {
    expect(htmlToText("<p>a &amp; b &lt;c&gt; &#8212; &#x41;</p><ul><li>x</li></ul>")).toBe("a & b <c> — A\n- x");
  });
});

describe("the paywall cut", () => {
  const text = (t: string) => el({ type: "text", text: `<p>${t}</p>` });
  it("keeps the elements before the story's paywall point, across cards", () => {
    const image = el({ type: "image", "image-s3-key": "k" });
    const c = [...cards(image, text("Free one.")), ...cards(text("Free two."), text("Paid three."))];
    for (const [point, free, paid] of [
      [0, [], ["Free one.", "Free two.", "Paid three."]],
      [2, ["Free one."], ["Free two.", "Paid three."]],
      [3, ["Free one.", "Free two."], ["Paid three."]],
    ] as const) {
      const mail = personalise(
        compileStoryMail({
          frame,
          story: { ...story(c), paywallPoint: point },
          variant: "cut",
          subscribeUrl: "https://x.test/s",
          imageUrl: ctx.imageUrl,
        }),
        reader("r1"),
      );
      for (const words of free) expect(mail.text).toContain(words);
      for (const words of paid) expect(`${mail.html}\n${mail.text}`).not.toContain(words);
    }
  });

  it("gives readers without access the free part and a link to subscribe; readers with access everything", () => {
    const c = cards(text("Free paragraph."), text("Paid paragraph."));
    const args = { frame, story: story(c), subscribeUrl: "https://news.example.com/subscribe", imageUrl: ctx.imageUrl };
    const cut = personalise(compileStoryMail({ ...args, variant: "cut" }), reader("r1"));
    expect(cut.html).toContain("Free paragraph.");
    expect(cut.html).not.toContain("Paid paragraph.");
    expect(cut.html).toContain("Subscribe to read on");
    expect(cut.html).toContain(encodeURIComponent("https://news.example.com/subscribe"));
    expect(cut.text).not.toContain("Paid paragraph.");
    const full = personalise(compileStoryMail({ ...args, variant: "full" }), reader("r1"));
    expect(full.html).toContain("Paid paragraph.");
    expect(full.html).not.toContain("Subscribe to read on");
  });
});

describe("the mail", () => {
  it("escapes hostile text everywhere it shows", () => {
    const hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const t = compileStoryMail({
      frame: {
        ...frame,
        newsletterName: hostile,
        publisherName: hostile,
        design: { ...frame.design, footer: hostile },
      },
      story: { ...story(cards(el({ type: "text", text: `<p>${hostile}</p>` })), hostile), subheadline: hostile },
      variant: "full",
      subscribeUrl: "https://news.example.com/s",
      imageUrl: ctx.imageUrl,
    });
    const { html } = personalise(t, reader("r"));
    expect(html).not.toMatch(/<script|<img src=x/i);
    // Every onerror is inside escaped text.
    expect(html.replaceAll("&lt;img src=x onerror=alert(2)&gt;", "")).not.toContain("onerror");
    expect(html).toContain("&lt;script&gt;");
  });

  it("rewrites every link per reader, and adds the pixel only when asked", () => {
    const t = compileStoryMail({
      frame,
      story: story(cards(el({ type: "text", text: '<p><a href="https://example.org/x">x</a></p>' }))),
      variant: "full",
      subscribeUrl: "https://news.example.com/s",
      imageUrl: ctx.imageUrl,
    });
    const a = personalise(t, reader("aaa"));
    const b = personalise(t, { ...reader("bbb"), openPixelUrl: "https://app.test/api/newsletters/open/bbb" });
    const hrefs = [...a.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThanOrEqual(3);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/app\.test\/api\/newsletters\/(click|unsubscribe)\/aaa/);
    expect(a.html).not.toContain("/open/");
    expect(b.html).toContain('<img src="https://app.test/api/newsletters/open/bbb" width="1" height="1"');
    expect(a.text).toContain("Unsubscribe: https://app.test/api/newsletters/unsubscribe/aaa");
    expect(a.html).not.toMatch(/mhl-/);
    expect(a.html).toContain("1 Press Street<br>Springfield");
    expect(a.html).toContain('src="https://cdn.test/logo.png"');
  });

  it("falls back to the default design for unusable values", () => {
    expect(parseDesign({ accentColor: "red;background:url(x)", logoUrl: "javascript:x", footer: 3 })).toEqual({
      logoUrl: null,
      accentColor: "#1d4ed8",
      backgroundColor: "#f3f4f6",
      footer: "",
    });
  });

  it("has one-click unsubscribe headers and a one-line subject", () => {
    expect(newsletterHeaders({ unsubscribeUrl: "https://app.test/u/1", replyTo: "a@b.test\r\nBcc: x" })).toEqual({
      "List-Unsubscribe": "<https://app.test/u/1>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "Reply-To": "a@b.testBcc: x",
    });
    expect(subjectLine("Hello\r\nBcc: x@y")).toBe("Hello Bcc: x@y");
  });

  it("lists a digest's stories with headline, summary, image and link", () => {
    const t = compileDigestMail({
      frame,
      title: "Top stories",
      stories: [
        {
          headline: "One & two",
          summary: "<p>S1</p>",
          url: "https://news.example.com/one",
          image: { url: "https://images.example.com/1.png", metadata: { width: 1000, height: 500 } },
        },
        { headline: "Three", summary: null, url: "https://news.example.com/three", image: null },
      ],
    });
    const { html, text } = personalise(t, reader("d"));
    expect(html).toContain("One &amp; two");
    expect(html).toContain("S1");
    expect(html).toContain('width="600" height="300"');
    expect(html).toContain(encodeURIComponent("https://news.example.com/three"));
    expect(text).toContain("Three");
  });
});

describe("the chrome in the reader's language", () => {
  const para = (t: string) => el({ type: "text", text: `<p>${t}</p>` });
  const c = cards(para("Free paragraph."), para("Paid paragraph."));
  const compile = (locale: "ar" | "ta", variant: "full" | "cut") =>
    personalise(
      compileStoryMail({
        frame: { ...frame, language: { locale, t: translator("mail", locale) } },
        story: story(c),
        variant,
        subscribeUrl: "https://news.example.com/subscribe",
        imageUrl: ctx.imageUrl,
      }),
      reader("r1"),
    );

  it("puts an Arabic reader's frame right to left and keeps the newsroom's English story left to right", () => {
    const { html, text: plain } = compile("ar", "cut");
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('lang="en" dir="ltr">');
    expect(html).toContain("اشترك لمتابعة القراءة");
    expect(html).toContain("تصلك نشرة The Briefing من The Gazette.");
    expect(html).not.toContain("Subscribe to read on");
    expect(plain).toContain("إلغاء الاشتراك: https://app.test/api/newsletters/unsubscribe/r1");
  });

  it("says a Tamil reader's footer and links in Tamil", () => {
    const { html } = compile("ta", "full");
    expect(html).toContain('<html lang="ta" dir="ltr">');
    expect(html).toContain("இணையதளத்தில் படியுங்கள்");
    expect(html).toContain("குழுவிலகு");
  });
});
