/**
 * A comment's HTML from another system (a Disqus message, a WordPress comment) as the ops of a
 * Masthead comment body (server/engagement/comments.schema.ts): text, links and line breaks,
 * never HTML. Pure.
 *
 * 1. Images become links to them ("[image]"), since a comment's image ops may only show images
 *    Masthead serves; the link keeps them one click away.
 * 2. The HTML goes through the publishing allow-list (server/publishing/editorial/sanitize.ts
 *    cleanHtml): scripts, styles, frames and event handlers go with their content, links keep
 *    only an http(s) or mailto href that passes the URL rule.
 * 3. What is left (p, br, strong, em, b, i, a, ul, ol, li, h2, h3, blockquote) is read as text:
 *    a link with an http(s) href is a link op, a mailto one its text; <br> is a line break, a
 *    paragraph, heading or quote ends with a blank line, a list item starts a line with "• ".
 *    Entities are decoded; other formatting keeps its text only.
 * 4. Whitespace: in HTML (Disqus) runs of spaces and newlines are one space; in WordPress
 *    comments a newline is a line break (WordPress shows them so), with at most one blank line.
 * 5. Control characters (other than tab and line feed) are dropped; more than MAX_OPS ops turn
 *    the last links into "text (url)" so that the comment keeps every word and every address.
 * The stored form (a final newline, the size limits) is the engagement's own `prepareOps`.
 */
import { ownValue } from "@/server/own-keys";

import { COMMENT_LIMITS, ZLinkOp, type TCommentOp } from "../engagement/comments.schema";
import { cleanHtml } from "../publishing/editorial/sanitize";

export type HtmlNewlines = "html" | "text";

/** Ops before the final newline op that prepareOps may add. */
const MAX_OPS = COMMENT_LIMITS.maxOps - 1;

type Piece = { text: string; link?: string };

const BLOCKS = new Set(["p", "h2", "h3", "blockquote", "ul", "ol", "li"]);
const PARAGRAPHS = new Set(["p", "h2", "h3", "blockquote"]);
// C0 controls other than tab and line feed, DEL and C1 controls (comments.schema.ts refuses them).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `<img src=…>` as a link to the image, before the allow-list (which drops images). */
export function imagesAsLinks(html: string): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
    const url = src ? (src[1] ?? src[2] ?? src[3] ?? "") : "";
    return url ? `<a href="${url.replace(/"/g, "&quot;")}">[image]</a>` : "";
  });
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** The few entities the allow-list's output holds (it escapes & < > " and leaves the rest as characters). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos|nbsp);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith("#x")) return codePoint(parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith("#")) return codePoint(parseInt(lower.slice(1), 10), whole);
    return ownValue(NAMED_ENTITIES, lower) ?? whole;
  });
}

function codePoint(n: number, fallback: string): string {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff)
    ? String.fromCodePoint(n)
    : fallback;
}

/** The ops of `html` (without prepareOps's final newline); [] when nothing readable is left. */
export function htmlToOps(html: string, newlines: HtmlNewlines): TCommentOp[] {
  const clean = cleanHtml(imagesAsLinks(html.replace(/\r\n?/g, "\n")));
  const pieces: Piece[] = [];
  let link: { href: string | null; text: string } | null = null;
  const tail = () => pieces.at(-1)?.text ?? "";
  const push = (text: string, href?: string) => {
    if (!text) return;
    const last = pieces.at(-1);
    if (!href && last && !last.link) last.text += text;
    else pieces.push(href ? { text, link: href } : { text });
  };
  const lineBreak = (blankLine: boolean) => {
    if (pieces.length === 0) return;
    const end = tail();
    if (!end.endsWith("\n")) push("\n");
    if (blankLine && !tail().endsWith("\n\n")) push("\n");
  };
  const text = (raw: string) => {
    let t = decodeEntities(raw).replace(CONTROL, "");
    t = newlines === "html" ? t.replace(/[ \t\n\f]+/g, " ") : t.replace(/[ \t\f]+/g, " ");
    if (link) {
      link.text += t;
      return;
    }
    // No space at the start of a line.
    if (pieces.length === 0 || tail().endsWith("\n")) t = t.replace(/^ +/, "");
    push(t);
  };

  for (const match of clean.matchAll(/<(\/?)([a-z0-9]+)([^>]*)>|([^<]+)/gi)) {
    if (match[4] !== undefined) {
      text(match[4]);
      continue;
    }
    const closing = match[1] === "/";
    const tag = match[2]!.toLowerCase();
    if (tag === "br") {
      if (link) link.text += " ";
      else push("\n");
    } else if (tag === "a") {
      if (!closing) {
        const href = /\bhref="([^"]*)"/.exec(match[3] ?? "");
        link = { href: href ? decodeEntities(href[1]!) : null, text: "" };
      } else if (link) {
        const label = link.text.replace(/\s+/g, " ").trim();
        const href = link.href && /^https?:/i.test(link.href) ? link.href : null;
        if (label && href) pieces.push({ text: label, link: href });
        else push(label);
        link = null;
      }
    } else if (BLOCKS.has(tag)) {
      if (!closing) {
        lineBreak(false);
        if (tag === "li") push("• ");
      } else {
        lineBreak(PARAGRAPHS.has(tag));
      }
    }
  }
  if (link && link.text) push(link.text);
  return finish(pieces);
}

/** Tidy the pieces (spaces before line breaks, blank lines, ends) into at most MAX_OPS valid ops. */
function finish(pieces: Piece[]): TCommentOp[] {
  const tidy: Piece[] = [];
  for (const piece of pieces) {
    const text = piece.link ? piece.text : piece.text.replace(/ +\n/g, "\n").replace(/\n{3,}/g, "\n\n");
    if (text) tidy.push({ ...piece, text });
  }
  // Trim the whole: leading and trailing whitespace of the first and last text pieces.
  while (tidy.length > 0 && !tidy[0]!.link && !(tidy[0]!.text = tidy[0]!.text.replace(/^\s+/, ""))) tidy.shift();
  while (tidy.length > 0 && !tidy.at(-1)!.link && !(tidy.at(-1)!.text = tidy.at(-1)!.text.replace(/\s+$/, ""))) {
    tidy.pop();
  }
  let ops: TCommentOp[] = tidy.map((p) => (p.link ? toLinkOp(p.text, p.link) : { insert: p.text }));
  ops = mergeText(ops);
  while (ops.length > MAX_OPS) {
    const index = ops.findLastIndex((op) => "attributes" in op);
    if (index < 0) break;
    ops[index] = { insert: linkAsText(ops[index] as { insert: string; attributes: { link: string } }) };
    ops = mergeText(ops);
  }
  return ops;
}

function toLinkOp(label: string, href: string): TCommentOp {
  const op = { attributes: { link: href }, insert: label };
  return ZLinkOp.safeParse(op).success ? op : { insert: linkAsText(op) };
}

function linkAsText(op: { insert: string; attributes: { link: string } }): string {
  return op.insert === op.attributes.link ? op.insert : `${op.insert} (${op.attributes.link})`;
}

function mergeText(ops: TCommentOp[]): TCommentOp[] {
  const out: TCommentOp[] = [];
  for (const op of ops) {
    const last = out.at(-1);
    if (
      last &&
      !("attributes" in last) &&
      !("attributes" in op) &&
      typeof last.insert === "string" &&
      typeof op.insert === "string"
    ) {
      out[out.length - 1] = { insert: last.insert + op.insert };
    } else {
      out.push(op);
    }
  }
  return out;
}
