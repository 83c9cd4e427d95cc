import { describe, expect, it } from "vitest";

import type { Locale } from "@/i18n/locales";
import { translator } from "@/i18n/translate";

import { commentLink, excerptOf, renderDigestMail, renderImmediateMail, type TMailItem } from "./mail";
import { escapeXml, renderRss } from "./rss";

const language = (locale: Locale, overrides?: ReadonlyMap<string, string>) => ({
  locale,
  dir: locale === "ar" ? ("rtl" as const) : ("ltr" as const),
  t: translator("mail", locale, overrides),
});

const ctx = {
  language: language("en"),
  publication: "The <Daily>",
  readerName: "Ada & co",
  unsubscribeUrl: "https://app.example.com/api/v1/accounts/1/notifications/unsubscribe?token=1.replies.x",
  unsubscribeMailto: "mailto:news@example.com?subject=unsubscribe",
};

const item = (over: Partial<TMailItem> = {}): TMailItem => ({
  id: 1,
  kind: "replies",
  createdAt: new Date("2026-11-26T08:00:00Z"),
  commentId: 5,
  authorName: "Bo <script>",
  excerpt: 'I "disagree" <b>strongly</b>',
  authorKind: "member",
  pageUrl: "https://news.example.com/a?x=1&y=2",
  headline: "A & B",
  ...over,
});

describe("notification mails", () => {
  it("escape every reader-written word in the HTML part and link to the comment on its page", () => {
    const mail = renderImmediateMail(ctx, item());
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).toContain("Bo &lt;script&gt;");
    expect(mail.html).toContain("Ada &amp; co");
    expect(mail.html).toContain('href="https://news.example.com/a?x=1&amp;y=2#comment-5"');
    expect(mail.text).toContain("https://news.example.com/a?x=1&y=2#comment-5");
    expect(mail.text).toContain('> I "disagree" <b>strongly</b>');
    expect(mail.subject).toBe('Bo <script> replied to your comment on "A & B" · The <Daily>');
  });

  it("carry one-click unsubscribe headers (RFC 8058)", () => {
    const mail = renderImmediateMail(ctx, item());
    expect(mail.headers).toEqual({
      "List-Unsubscribe": `<${ctx.unsubscribeUrl}>, <${ctx.unsubscribeMailto}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("a subject never holds a line break", () => {
    const mail = renderImmediateMail(ctx, item({ authorName: "Bo\r\nBcc: x@y.z" }));
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it("the digest groups its items by kind", () => {
    const mail = renderDigestMail(ctx, [
      item({ id: 2, kind: "decisions", decision: "rejected" }),
      item({ id: 1, kind: "mentions" }),
    ]);
    expect(mail.subject).toBe("2 updates on your comments · The <Daily>");
    expect(mail.text.indexOf("Mentions of you")).toBeLessThan(mail.text.indexOf("Moderators' decisions"));
    expect(mail.text).toContain("A moderator rejected your comment");
  });

  it("excerpts a comment's ops as text, mentions as @name, shortened", () => {
    expect(
      excerptOf({ ops: [{ insert: "Hi " }, { attributes: { mention: { name: "Ada" } }, insert: { mentions: true } }] }),
    ).toBe("Hi @Ada");
    expect(excerptOf({ ops: [{ insert: "x".repeat(400) }] })).toHaveLength(280);
    expect(commentLink("https://a.example/p#old", 3)).toBe("https://a.example/p#comment-3");
  });
});

describe("notification mails in the reader's language", () => {
  it("say it in Hindi: subject, text and HTML, with lang and the Devanagari full stop", () => {
    const mail = renderImmediateMail({ ...ctx, language: language("hi") }, item());
    expect(mail.subject).toBe('Bo <script> ने "A & B" पर आपकी टिप्पणी का जवाब दिया · The <Daily>');
    expect(mail.text).toContain("नमस्ते Ada & co,");
    expect(mail.text).toContain('Bo <script> ने "A & B" पर आपकी टिप्पणी का जवाब दिया।');
    expect(mail.html).toContain('<html lang="hi" dir="ltr">');
    expect(mail.html).toContain("टिप्पणी देखें");
    expect(mail.html).not.toContain("See the comment");
  });

  it("read right to left in Arabic, and keep a comment's own direction", () => {
    const mail = renderDigestMail({ ...ctx, language: language("ar") }, [item(), item({ id: 2, kind: "mentions" })]);
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain("text-align:right;");
    expect(mail.html).toContain('<blockquote dir="auto"');
    // Arabic plural rules: two updates is the dual form.
    expect(mail.subject).toBe("أمران جديدان على تعليقاتك · The <Daily>");
  });

  it("name an author without a name in the reader's words", () => {
    const fr = { ...ctx, language: language("fr") };
    expect(renderImmediateMail(fr, item({ authorName: null, authorKind: "confidential" })).subject).toMatch(
      /^Quelqu’un a répondu/,
    );
    expect(renderImmediateMail(fr, item({ authorName: null, authorKind: "guest" })).subject).toMatch(/^Un invité/);
  });

  it("use the owner's own greeting when there is one", () => {
    const own = language("de", new Map([["greeting", "Liebe Leserin, lieber Leser {name},"]]));
    const mail = renderImmediateMail({ ...ctx, language: own }, item());
    expect(mail.text.startsWith("Liebe Leserin, lieber Leser Ada & co,")).toBe(true);
    expect(mail.html).toContain("Liebe Leserin, lieber Leser Ada &amp; co,");
  });
});

describe("the comments' RSS", () => {
  it("escapes text and drops characters XML cannot hold", () => {
    expect(escapeXml(`<a href="x">&'\u0001`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
    const xml = renderRss({
      page: { url: "https://news.example.com/a?x=1&y=2", headline: "A <b>" },
      selfUrl: "https://app.example.com/feed.rss",
      comments: [
        { id: 9, accountId: 1, authorName: "Bo & Cy", text: "]]> <script>", createdAt: new Date(0), isReply: false },
      ],
    });
    expect(xml).toContain("<title>Bo &amp; Cy commented on A &lt;b&gt;</title>");
    expect(xml).toContain("<description>]]&gt; &lt;script&gt;</description>");
    expect(xml).toContain("<pubDate>Thu, 01 Jan 1970 00:00:00 GMT</pubDate>");
    expect(xml).not.toContain("<script>");
  });
});
