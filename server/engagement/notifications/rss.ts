/**
 * A page's comments as an RSS 2.0 feed (docs/engagement.md "The comments' RSS feed"): the newest
 * RSS_ITEMS visible comments (published, not spam, hidden or deleted; replies of listed comments
 * too), newest first, each linking to the comment on its page. Every text is XML-escaped, and no
 * reader's words are sent as markup: the description is the comment's plain text. An unknown page
 * is 404. The route keeps the answer in the response cache under the comments' purge key.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { answeredQuestionIds } from "../comment-queries";
import { qaOf } from "../comment-threads";
import { VISIBLE } from "../comments";
import { decodePageId, findPage } from "../pages";
import { commentLink, excerptOf } from "./mail";

const RSS_ITEMS = 50;

/** Text for XML character data and attribute values; characters XML 1.0 cannot hold are dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

type TRssComment = {
  id: number;
  accountId: number;
  authorName: string;
  text: string;
  createdAt: Date;
  isReply: boolean;
};

/** The feed's XML (RFC 822 dates, as RSS 2.0 asks). */
export function renderRss(args: {
  page: { url: string; headline: string | null };
  selfUrl: string;
  comments: TRssComment[];
}): string {
  const title = args.page.headline?.trim() || args.page.url;
  const items = args.comments.map((c) => {
    const words = c.isReply ? "replied" : "commented";
    return `    <item>
      <title>${escapeXml(`${c.authorName} ${words} on ${title}`)}</title>
      <link>${escapeXml(commentLink(args.page.url, c.id))}</link>
      <guid isPermaLink="false">${escapeXml(`masthead-comment-${c.accountId}-${c.id}`)}</guid>
      <pubDate>${c.createdAt.toUTCString()}</pubDate>
      <description>${escapeXml(c.text)}</description>
    </item>`;
  });
  const updated = args.comments[0]?.createdAt ?? null;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(`Comments on ${title}`)}</title>
    <link>${escapeXml(args.page.url)}</link>
    <description>${escapeXml(`The newest comments on ${title}`)}</description>
    <atom:link href="${escapeXml(args.selfUrl)}" rel="self" type="application/rss+xml"/>
${updated ? `    <lastBuildDate>${updated.toUTCString()}</lastBuildDate>\n` : ""}${items.join("\n")}${items.length ? "\n" : ""}  </channel>
</rss>
`;
}

/** The RSS feed of the page `encodedUrl` names (404 when the account has no such page). */
export async function pageCommentsRss(
  db: Db,
  args: { accountId: number; encodedUrl: string; selfUrl: string },
): Promise<string> {
  const url = decodePageId(args.encodedUrl, "params.encoded_url");
  const page = await findPage(db, args.accountId, url);
  if (!page) throw new AppError("NOT_FOUND", "No comments have been written on this page.");
  // A Q&A page shows answered questions only, and their replies (docs/engagement.md "Q&A pages").
  const qa = qaOf(page);
  const answered = qa ? await answeredQuestionIds(db, { accountId: page.accountId, pageId: page.id, qa }) : null;
  const rows = await db.comment.findMany({
    where: {
      accountId: args.accountId,
      pageId: page.id,
      ...VISIBLE,
      ...(answered ? { AND: [{ OR: [{ id: { in: answered } }, { parentCommentId: { in: answered } }] }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RSS_ITEMS,
    include: { author: { select: { name: true } } },
  });
  return renderRss({
    page,
    selfUrl: args.selfUrl,
    comments: rows.map((c) => ({
      id: c.id,
      accountId: c.accountId,
      authorName: c.confidential ? "Someone" : c.guest ? (c.guestName ?? "A guest") : c.author.name || "A reader",
      text: excerptOf(c.body),
      createdAt: c.createdAt,
      isReply: c.parentCommentId !== null,
    })),
  });
}
