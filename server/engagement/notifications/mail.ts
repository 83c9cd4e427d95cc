/**
 * The e-mails that tell readers (docs/engagement.md "Notifications to readers"): one event at
 * once, or the daily digest, in the reader's language (the `mail` catalogue: server/i18n/reader-mail.ts).
 * Plain text and a simple HTML part (tables and inline styles, which every mail client renders)
 * with the locale's lang and dir, every reader-written word escaped (a comment's words and a
 * page's headline keep `dir="auto"`: they are in whatever language their writer used); each item
 * links to the comment on its page. Every mail carries one-click unsubscribe (RFC 8058): List-Unsubscribe with the
 * HTTPS URL and a mailto, and List-Unsubscribe-Post.
 */
import { escapeHtml, greeting, langDir, startAlign, type ReaderMail } from "../../i18n/reader-mail";
import { commentOpsText } from "../../text/comment-ops";
import { truncateGraphemes } from "../../text/graphemes";
import { groupDigest, type TDecision, type TNotificationKind } from "./rules";

/** One thing told, with what the mail shows of it. */
export type TMailItem = {
  id: bigint | number;
  kind: TNotificationKind;
  decision?: TDecision | null;
  createdAt: Date;
  commentId: number;
  /** Who wrote the comment (null: a confidential one, "Someone"; a guest without a name or a member without one are told apart). */
  authorName: string | null;
  authorKind?: "member" | "guest" | "confidential";
  /** The comment's text, shortened. */
  excerpt: string;
  pageUrl: string;
  headline: string | null;
};

export type TMailContext = {
  /** The reader's language: locale, direction, the translator. */
  language: Pick<ReaderMail, "locale" | "dir" | "t">;
  publication: string;
  readerName: string;
  /** The HTTPS one-click URL for this mail's kind (or "all" for a digest). */
  unsubscribeUrl: string;
  /** The mailbox that takes unsubscribe requests by mail. */
  unsubscribeMailto: string;
};

type TRenderedMail = { subject: string; text: string; html: string; headers: Record<string, string> };

const EXCERPT_MAX = 280;

/** A comment's ops as plain text (mentions as @name, images left out), shortened to EXCERPT_MAX. */
export function excerptOf(body: unknown): string {
  const text = commentOpsText(body);
  const flat = text.replace(/\s+/g, " ").trim();
  return truncateGraphemes(flat, EXCERPT_MAX);
}

/** The link to a comment on its page. */
export function commentLink(pageUrl: string, commentId: number): string {
  return `${pageUrl.replace(/#.*$/, "")}#comment-${commentId}`;
}

/** A header value holds no line break (a name or headline from a reader never makes a new header). */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ");

function headline(item: TMailItem): string {
  return item.headline?.trim() || item.pageUrl;
}

type Language = TMailContext["language"];

/** Who wrote the comment, in the reader's words for the ones without a name. */
function author(lang: Language, item: TMailItem): string {
  if (item.authorKind === "confidential") return lang.t("notifySomeone");
  if (item.authorName) return item.authorName;
  return lang.t(item.authorKind === "guest" ? "notifyGuest" : "notifyReader");
}

/** What the item says happened, in words. */
function itemSentence(lang: Language, item: TMailItem): string {
  const values = { author: author(lang, item), headline: headline(item) };
  switch (item.kind) {
    case "replies":
      return lang.t("notifyReply", values);
    case "mentions":
      return lang.t("notifyMention", values);
    case "decisions":
      return lang.t(item.decision === "rejected" ? "notifyRejected" : "notifyApproved", values);
  }
}

function unsubscribeHeaders(ctx: TMailContext): Record<string, string> {
  return {
    "List-Unsubscribe": `<${ctx.unsubscribeUrl}>, <${ctx.unsubscribeMailto}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

const KIND_TITLE = {
  replies: "notifyTitleReplies",
  mentions: "notifyTitleMentions",
  decisions: "notifyTitleDecisions",
} as const satisfies Record<TNotificationKind, string>;

const STYLE = {
  body: "margin:0;padding:0;background:#f4f4f5;",
  card: "max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e4e4e7;border-radius:8px;",
  cell: "padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#18181b;",
  quote: "margin:8px 0 12px;padding:8px 12px;border-inline-start:3px solid #d4d4d8;color:#3f3f46;",
  link: "color:#1d4ed8;",
  h2: "font-size:16px;margin:20px 0 8px;",
  foot: "padding:16px 24px;font-family:Arial,Helvetica,sans-serif;font-size:12px;color:#71717a;",
};

function itemHtml(lang: Language, item: TMailItem): string {
  const link = commentLink(item.pageUrl, item.commentId);
  return (
    `<p style="margin:12px 0 0;">${escapeHtml(lang.t("sentence", { text: itemSentence(lang, item) }))}</p>` +
    (item.excerpt ? `<blockquote dir="auto" style="${STYLE.quote}">${escapeHtml(item.excerpt)}</blockquote>` : "") +
    `<p style="margin:0 0 12px;"><a href="${escapeHtml(link)}" style="${STYLE.link}">${escapeHtml(lang.t("notifySeeComment"))}</a></p>`
  );
}

function itemText(lang: Language, item: TMailItem): string {
  return [
    lang.t("sentence", { text: itemSentence(lang, item) }),
    ...(item.excerpt ? [`> ${item.excerpt}`] : []),
    commentLink(item.pageUrl, item.commentId),
  ].join("\n");
}

function page(ctx: TMailContext, subject: string, inner: string, why: string): string {
  const { language: lang } = ctx;
  const align = `text-align:${startAlign(lang)};`;
  return `<!doctype html>
<html ${langDir(lang)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="${STYLE.body}"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:16px 8px;" ${langDir(lang)}><tr><td>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${STYLE.card}">
<tr><td style="${STYLE.cell}${align}"><p style="margin:0;">${escapeHtml(greeting(lang, ctx.readerName))}</p>${inner}</td></tr>
<tr><td style="${STYLE.foot}${align}">${escapeHtml(why)} <a href="${escapeHtml(ctx.unsubscribeUrl)}" style="color:#71717a;">${escapeHtml(lang.t("unsubscribe"))}</a></td></tr>
</table></td></tr></table></body></html>
`;
}

function footText(ctx: TMailContext, why: string): string {
  return `--\n${why}\n${ctx.language.t("unsubscribeLine", { url: ctx.unsubscribeUrl })}\n`;
}

/** The e-mail telling one event at once. */
export function renderImmediateMail(ctx: TMailContext, item: TMailItem): TRenderedMail {
  const lang = ctx.language;
  const subject = oneLine(`${itemSentence(lang, item)} · ${ctx.publication}`);
  const why = lang.t("notifyWhyImmediate", { publication: ctx.publication });
  return {
    subject,
    text: `${greeting(lang, ctx.readerName)}\n\n${itemText(lang, item)}\n\n${footText(ctx, why)}`,
    html: page(ctx, subject, itemHtml(lang, item), why),
    headers: unsubscribeHeaders(ctx),
  };
}

/** The daily digest: the items grouped by kind. */
export function renderDigestMail(ctx: TMailContext, items: readonly TMailItem[]): TRenderedMail {
  const lang = ctx.language;
  const groups = groupDigest(items);
  const subject = oneLine(lang.t("notifyDigestSubject", { count: items.length, publication: ctx.publication }));
  const why = lang.t("notifyWhyDigest", { publication: ctx.publication });
  const intro = lang.t("notifyDigestIntro");
  const text = groups
    .map((g) => {
      const title = lang.t(KIND_TITLE[g.kind]);
      return `${title}\n${"-".repeat(title.length)}\n\n${g.items.map((i) => itemText(lang, i)).join("\n\n")}`;
    })
    .join("\n\n");
  const html = groups
    .map(
      (g) =>
        `<h2 style="${STYLE.h2}">${escapeHtml(lang.t(KIND_TITLE[g.kind]))}</h2>${g.items.map((i) => itemHtml(lang, i)).join("")}`,
    )
    .join("");
  return {
    subject,
    text: `${greeting(lang, ctx.readerName)}\n\n${intro}\n\n${text}\n\n${footText(ctx, why)}`,
    html: page(ctx, subject, `<p style="margin:12px 0 0;">${escapeHtml(intro)}</p>${html}`, why),
    headers: unsubscribeHeaders(ctx),
  };
}
