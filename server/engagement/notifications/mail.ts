/**
 * The e-mails that tell readers (docs/engagement.md "Notifications to readers"): one event at
 * once, or the daily digest. Plain text and a simple HTML part (tables and inline styles, which
 * every mail client renders), every reader-written word escaped; each item links to the comment
 * on its page. Every mail carries one-click unsubscribe (RFC 8058): List-Unsubscribe with the
 * HTTPS URL and a mailto, and List-Unsubscribe-Post.
 */
import { groupDigest, type TDecision, type TNotificationKind } from "./rules";

/** One thing told, with what the mail shows of it. */
export type TMailItem = {
  id: bigint | number;
  kind: TNotificationKind;
  decision?: TDecision | null;
  createdAt: Date;
  commentId: number;
  /** Who wrote the comment ("Someone" for a confidential one). */
  authorName: string;
  /** The comment's text, shortened. */
  excerpt: string;
  pageUrl: string;
  headline: string | null;
};

export type TMailContext = {
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
  const ops = (body as { ops?: unknown[] } | null)?.ops ?? [];
  let text = "";
  for (const op of ops) {
    if (!op || typeof op !== "object") continue;
    const { insert, attributes } = op as { insert?: unknown; attributes?: { mention?: { name?: unknown } } };
    if (typeof insert === "string") text += insert;
    else if (attributes?.mention && typeof attributes.mention.name === "string") text += `@${attributes.mention.name}`;
  }
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_MAX ? `${flat.slice(0, EXCERPT_MAX - 1).trimEnd()}…` : flat;
}

/** Text for HTML: the five characters that matter escaped. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
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

/** What the item says happened, in words. */
function itemSentence(item: TMailItem): string {
  switch (item.kind) {
    case "replies":
      return `${item.authorName} replied to your comment on "${headline(item)}"`;
    case "mentions":
      return `${item.authorName} mentioned you on "${headline(item)}"`;
    case "decisions":
      return item.decision === "rejected"
        ? `A moderator rejected your comment on "${headline(item)}": it is not published`
        : `A moderator approved your comment on "${headline(item)}": it is published`;
  }
}

function unsubscribeHeaders(ctx: TMailContext): Record<string, string> {
  return {
    "List-Unsubscribe": `<${ctx.unsubscribeUrl}>, <${ctx.unsubscribeMailto}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

const KIND_TITLE: Record<TNotificationKind, string> = {
  replies: "Replies to your comments",
  mentions: "Mentions of you",
  decisions: "Moderators' decisions on your comments",
};

const STYLE = {
  body: "margin:0;padding:0;background:#f4f4f5;",
  card: "max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e4e4e7;border-radius:8px;",
  cell: "padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#18181b;",
  quote: "margin:8px 0 12px;padding:8px 12px;border-left:3px solid #d4d4d8;color:#3f3f46;",
  link: "color:#1d4ed8;",
  h2: "font-size:16px;margin:20px 0 8px;",
  foot: "padding:16px 24px;font-family:Arial,Helvetica,sans-serif;font-size:12px;color:#71717a;",
};

function itemHtml(item: TMailItem): string {
  const link = commentLink(item.pageUrl, item.commentId);
  return (
    `<p style="margin:12px 0 0;">${escapeHtml(itemSentence(item))}.</p>` +
    (item.excerpt ? `<blockquote style="${STYLE.quote}">${escapeHtml(item.excerpt)}</blockquote>` : "") +
    `<p style="margin:0 0 12px;"><a href="${escapeHtml(link)}" style="${STYLE.link}">See the comment</a></p>`
  );
}

function itemText(item: TMailItem): string {
  return [
    `${itemSentence(item)}.`,
    ...(item.excerpt ? [`> ${item.excerpt}`] : []),
    commentLink(item.pageUrl, item.commentId),
  ].join("\n");
}

function page(ctx: TMailContext, inner: string, why: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>
<body style="${STYLE.body}"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:16px 8px;"><tr><td>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${STYLE.card}">
<tr><td style="${STYLE.cell}"><p style="margin:0;">Hello ${escapeHtml(ctx.readerName)},</p>${inner}</td></tr>
<tr><td style="${STYLE.foot}">${escapeHtml(why)} <a href="${escapeHtml(ctx.unsubscribeUrl)}" style="color:#71717a;">Unsubscribe</a></td></tr>
</table></td></tr></table></body></html>
`;
}

function footText(ctx: TMailContext, why: string): string {
  return `--\n${why}\nUnsubscribe: ${ctx.unsubscribeUrl}\n`;
}

/** The e-mail telling one event at once. */
export function renderImmediateMail(ctx: TMailContext, item: TMailItem): TRenderedMail {
  const subject = oneLine(`${itemSentence(item)} · ${ctx.publication}`);
  const why = `You get this because you comment on ${ctx.publication}. Change what you get in the comments' Notifications settings, or unsubscribe from these e-mails.`;
  return {
    subject,
    text: `Hello ${ctx.readerName},\n\n${itemText(item)}\n\n${footText(ctx, why)}`,
    html: page(ctx, itemHtml(item), why),
    headers: unsubscribeHeaders(ctx),
  };
}

/** The daily digest: the items grouped by kind. */
export function renderDigestMail(ctx: TMailContext, items: readonly TMailItem[]): TRenderedMail {
  const groups = groupDigest(items);
  const count = items.length;
  const subject = oneLine(`${count} ${count === 1 ? "update" : "updates"} on your comments · ${ctx.publication}`);
  const why = `You get this daily digest because you comment on ${ctx.publication}. Change what you get in the comments' Notifications settings, or unsubscribe from these e-mails.`;
  const text = groups
    .map(
      (g) => `${KIND_TITLE[g.kind]}\n${"-".repeat(KIND_TITLE[g.kind].length)}\n\n${g.items.map(itemText).join("\n\n")}`,
    )
    .join("\n\n");
  const html = groups
    .map((g) => `<h2 style="${STYLE.h2}">${escapeHtml(KIND_TITLE[g.kind])}</h2>${g.items.map(itemHtml).join("")}`)
    .join("");
  return {
    subject,
    text: `Hello ${ctx.readerName},\n\nWhat happened on your comments since the last digest:\n\n${text}\n\n${footText(ctx, why)}`,
    html: page(
      ctx,
      `<p style="margin:12px 0 0;">What happened on your comments since the last digest:</p>${html}`,
      why,
    ),
    headers: unsubscribeHeaders(ctx),
  };
}
