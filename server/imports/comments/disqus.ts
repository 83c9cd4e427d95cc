/**
 * A Disqus export (Admin → Moderation → Export; disqus.com/api/schemas/1.0/disqus.xsd): under
 * <disqus>, <category> elements, then every <thread dsq:id> (link, title, createdAt…), then every
 * <post dsq:id> (message as HTML, createdAt, isDeleted, isSpam, author {name, email, username,
 * isAnonymous}, <thread dsq:id> and, for a reply, <parent dsq:id>). Posts come after threads, but
 * a reply may come before the post it replies to. Read as CommentRecords, streaming.
 *
 * Disqus exports carry no "pending" flag; an <isApproved>false</isApproved>, where a file has
 * one, holds the comment for moderation.
 */
import { siteScope } from "../types";
import { child, childText, streamXml, type XmlNode } from "../xml-stream";
import {
  isTrue,
  parseExportDate,
  type CommentPost,
  type CommentReader,
  type CommentRecord,
  type CommentThread,
  type SourceState,
} from "./records";

const DSQ_ID = "dsq:id";

/** A <thread> element as a thread (null without a dsq:id: nothing can name it). */
function disqusThread(node: XmlNode): CommentThread | null {
  const id = node.attrs[DSQ_ID]?.trim();
  if (!id) return null;
  const created = parseExportDate(childText(node, "createdAt"));
  return {
    sourceId: id,
    url: childText(node, "link") || null,
    title: childText(node, "title") || null,
    createdAt: created instanceof Date ? created : null,
    line: node.line,
    identifier: childText(node, "id") || null,
    closed: isTrue(childText(node, "isClosed")),
  };
}

/** A <post> element as a post. */
function disqusPost(node: XmlNode): CommentPost {
  const problems: string[] = [];
  const id = node.attrs[DSQ_ID]?.trim() ?? "";
  if (!id) problems.push("it has no dsq:id");
  const created = parseExportDate(childText(node, "createdAt"));
  if (created === "invalid") problems.push(`its createdAt "${childText(node, "createdAt")}" is not a date`);
  const author = child(node, "author");
  const deleted = isTrue(childText(node, "isDeleted"));
  const spam = isTrue(childText(node, "isSpam"));
  const approved = childText(node, "isApproved");
  const state: SourceState = deleted
    ? "deleted"
    : spam
      ? "spam"
      : approved !== undefined && !isTrue(approved)
        ? "held"
        : "published";
  return {
    sourceId: id,
    threadId: child(node, "thread")?.attrs[DSQ_ID]?.trim() || null,
    parentId: child(node, "parent")?.attrs[DSQ_ID]?.trim() || null,
    createdAt: created instanceof Date ? created : null,
    html: child(node, "message")?.text ?? "",
    newlines: "html",
    state,
    spam,
    author: {
      name: (author && childText(author, "name")) || null,
      email: (author && childText(author, "email")) || null,
      accountId: (author && childText(author, "username")) || null,
      anonymous: author ? isTrue(childText(author, "isAnonymous")) : true,
    },
    skip: null,
    errors: problems,
    line: node.line,
  };
}

async function* readDisqus(path: string, onBytes: (bytes: Buffer) => void): AsyncGenerator<CommentRecord> {
  const events = streamXml(path, {
    isRecord: (p) => p.length === 2 && (p[1] === "thread" || p[1] === "post"),
    structureDepth: 1,
    onBytes,
  });
  let siteSent = false;
  for await (const event of events) {
    if (event.type === "root") yield { type: "root", name: event.name };
    else if (event.type === "record" && event.node.name === "thread") {
      // The forum (the Disqus site's shortname) scopes the ids: the first thread's names it.
      const forum = siteScope(childText(event.node, "forum"));
      if (!siteSent && forum) {
        siteSent = true;
        yield { type: "site", site: forum };
      }
      const thread = disqusThread(event.node);
      if (thread) yield { type: "thread", thread };
      else
        yield {
          type: "problem",
          problem: { where: `line ${event.node.line}`, message: "a <thread> without dsq:id is left out" },
        };
    } else if (event.type === "record") {
      yield { type: "post", post: disqusPost(event.node) };
    }
  }
}

export const DISQUS_READER: CommentReader = {
  provider: "disqus",
  root: "disqus",
  title: "a Disqus export",
  read: readDisqus,
};
