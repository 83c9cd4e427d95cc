/**
 * A comment's body (ops validated as data by comments.schema.ts): checked against COMMENT_LIMITS
 * (413) and the image rule (400) and stored ending with a newline; its digest (what a repeat is
 * recognised by) and its mentions.
 */
import { createHash } from "node:crypto";

import { getEnv } from "../../env.js";
import { AppError } from "../errors";
import type { Publisher } from "../publishing/publisher";
import { COMMENT_LIMITS, type TCommentMention, type TCommentOp } from "./comments.schema";

/**
 * Whether an image URL is one Masthead serves for the account: APP_URL/images/…, its image CDN,
 * or IMAGE_PUBLIC_BASE_URL/… (where uploads are read when it is set: storage/image-storage.ts).
 */
export function isMastheadImageUrl(
  url: string,
  publisher: Pick<Publisher, "cdnImage">,
  appUrl: string,
  imageBaseUrl: string | undefined = getEnv().IMAGE_PUBLIC_BASE_URL,
): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
  if (parsed.username || parsed.password) return false;
  if (parsed.origin === new URL(appUrl).origin && parsed.pathname.startsWith("/images/")) return true;
  if (imageBaseUrl && `${parsed.origin}${parsed.pathname}`.startsWith(`${imageBaseUrl}/`)) return true;
  const cdn = publisher.cdnImage.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  return Boolean(cdn) && `${parsed.host}${parsed.pathname}`.startsWith(`${cdn}/`);
}

/**
 * The ops as stored: checked against the limits (413) and the image rule (400), and ending with
 * a newline (a last text op gains one, otherwise a {insert: "\n"} op is added).
 */
export function prepareOps(ops: TCommentOp[], publisher: Pick<Publisher, "cdnImage">, appUrl: string): TCommentOp[] {
  if (ops.length > COMMENT_LIMITS.maxOps) {
    throw new AppError("PAYLOAD_TOO_LARGE", `A comment has at most ${COMMENT_LIMITS.maxOps} ops.`, {
      details: [{ field: "body.comment.body.ops", issue: `more than ${COMMENT_LIMITS.maxOps} ops` }],
    });
  }
  let textLength = 0;
  let substance = false;
  ops.forEach((op, index) => {
    if (typeof op.insert === "string") {
      textLength += op.insert.length;
      if (op.insert.trim()) substance = true;
    } else if ("image" in op.insert) {
      substance = true;
      if (!isMastheadImageUrl(op.insert.image, publisher, appUrl)) {
        throw new AppError("BAD_REQUEST", "Images in comments must be uploaded to Masthead first.", {
          details: [{ field: `body.comment.body.ops.${index}.insert.image`, issue: "is not an image Masthead serves" }],
        });
      }
    } else {
      substance = true;
    }
  });
  if (textLength > COMMENT_LIMITS.maxTextLength) {
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `A comment has at most ${COMMENT_LIMITS.maxTextLength} characters of text.`,
      {
        details: [{ field: "body.comment.body.ops", issue: `more than ${COMMENT_LIMITS.maxTextLength} characters` }],
      },
    );
  }
  if (!substance) {
    throw new AppError("BAD_REQUEST", "The comment is empty.", {
      details: [{ field: "body.comment.body.ops", issue: "holds no text, mention or image" }],
    });
  }
  const out = ops.map((op) => structuredClone(op));
  const last = out[out.length - 1]!;
  if (!("attributes" in last) && typeof last.insert === "string") {
    if (!last.insert.endsWith("\n")) out[out.length - 1] = { insert: `${last.insert}\n` };
  } else {
    out.push({ insert: "\n" });
  }
  return out;
}

/** What a repeated post is recognised by: its ops and the comment it replies to. */
export function digestOf(ops: TCommentOp[], parentId: number | null): string {
  return createHash("sha256").update(JSON.stringify({ ops, parentId })).digest("hex");
}

/** The readers a comment mentions, each once, in the order first mentioned. */
export function mentionsOf(ops: TCommentOp[]): TCommentMention[] {
  const seen = new Map<string, TCommentMention>();
  for (const op of ops) {
    if ("attributes" in op && "mention" in op.attributes) {
      const m = op.attributes.mention;
      if (!seen.has(m.id)) seen.set(m.id, { id: m.id, name: m.name, slug: m.slug });
    }
  }
  return [...seen.values()];
}
