/**
 * A comment's parts as the comments and feed widgets draw them: body, author's name, time. What a
 * reader wrote (a name, a body, a mention) takes its direction from its own letters (dir="auto"),
 * isolated from the frame's: an English comment in an Arabic frame reads left to right, and the
 * other way round.
 */
import { localTime } from "../local-time";
import { isHttp, type Op } from "../ops";
import { config, t } from "./core";
import { h, img, str, textWithBreaks } from "./dom";
import { type Comment, type Obj } from "./types";

/** The author's name; readers (not guests, not the anonymous) carry what the mention picker needs. */
export function nameTag(comment: Comment, name: string): HTMLElement {
  const a = comment.author;
  const attrs: Record<string, string> = { class: "name", dir: "auto" };
  if (a && !a.guest && a.name) {
    attrs["data-author-id"] = String(a.id);
    attrs["data-author-name"] = a.name;
    attrs["data-author-slug"] = a.slug || String(a.id);
    if (a.avatar && isHttp(a.avatar)) attrs["data-author-avatar"] = a.avatar;
  }
  return h("span", attrs, name);
}

export function displayName(comment: Comment): string {
  const a = comment.author;
  if (!a) return t("anonymous");
  if (a.erased) return t("eraseDeletedReader");
  return a.name || (a.guest ? t("guest") : t("anonymous"));
}

/** A comment's ops as DOM: text, links (http(s) only), mentions and images (http(s) only). */
export function renderBody(ops: Op[]): HTMLElement {
  const body = h("div", { class: "body", dir: "auto" });
  for (const op of ops) {
    const attrs = op.attributes || {};
    if (typeof op.insert === "string") {
      const link = typeof attrs.link === "string" && isHttp(attrs.link) ? attrs.link : null;
      const text = textWithBreaks(op.insert.replace(/\n$/, op === ops[ops.length - 1] ? "" : "\n"));
      if (link) body.append(h("a", { href: link, rel: "nofollow ugc noopener noreferrer", target: "_blank" }, ...text));
      else body.append(...text);
    } else if (op.insert && typeof op.insert === "object") {
      const insert = op.insert as Obj;
      const mention = attrs.mention as Obj | undefined;
      if (insert.mentions && mention) {
        const span = h("span", { class: "mention", dir: "auto" }, "@" + str(mention.name));
        body.append(span);
      } else if (typeof insert.image === "string" && isHttp(insert.image)) {
        body.append(img(insert.image, ""));
      }
    }
  }
  return body;
}

/** A time in the frame's language and the reader's time zone, with the zone ("Nov 27, 2026, 9:21 PM EST"). */
export function when(iso: string): string {
  return localTime(iso, config.locale, "short");
}
