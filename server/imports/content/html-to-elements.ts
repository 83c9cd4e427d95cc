/**
 * A post's HTML from another system (a WordPress post, classic or block editor; a Ghost post) as
 * Masthead story elements (server/publishing/cards.schema.ts), the shapes the card editor makes
 * (components/content/stories/story-elements.ts). Pure; the elements are sanitised afterwards by
 * the editor's own save path (normalizeCards: sanitize.ts's allow-list and URL rule), so this only
 * chooses the element for each block.
 *
 * - Classic-editor text (no block-level tag, or WordPress's `wpautop` text): a blank line starts a
 *   paragraph, a newline is a line break. Gutenberg's block comments (`<!-- wp:… -->`) are
 *   dropped: the rendered HTML between them is what is read.
 * - Shortcodes: `[gallery ids="…"]` (the ids looked up with `attachment`), `[caption]…[/caption]`
 *   and `[embed]URL[/embed]`; others keep their text.
 * - p, h1–h6 (h1–h2 → h2, h3–h6 → h3), ul/ol, text: a "text" element holding that block's HTML.
 * - blockquote: a "blockquote" (its <cite> or <footer> the attribution); a tweet's or an
 *   Instagram post's embed markup a "jsembed" (tweet, instagram) at the post's URL.
 * - img, figure with an img: an "image" (src kept as its key: images stay at their URLs; alt in
 *   metadata, figcaption as title). A gallery (wp-block-gallery, Ghost's kg-gallery-card,
 *   [gallery]): a "composite" image-gallery.
 * - iframe, wp-block-embed, a lone URL on its line: YouTube → "youtube-video"; X/Twitter and
 *   Instagram → "jsembed"; any other http(s) source a text element linking to it.
 * - pre/code: a text element, its lines kept as line breaks (Masthead has no code element).
 * - hr, script, style, forms, other markup: dropped (their text kept when they hold any).
 */
import { randomUUID } from "node:crypto";

import { isTag, isText, type ChildNode, type Element } from "domhandler";
import { DomUtils, parseDocument } from "htmlparser2";

import type { TStoryElement } from "../../publishing/cards.schema";
import { tweetIdFromUrl, youtubeVideoId } from "../../publishing/editorial/stories.schema";
import { escapeHtml, escapeHtmlText } from "../../security/html";
import { expandShortcodes, type AttachmentImage } from "./shortcodes";

export type HtmlToElementsOptions = {
  /** Classic-editor text: newlines are paragraphs and line breaks (WordPress's wpautop). */
  autop?: boolean;
  /** A WordPress attachment by its post id ([gallery ids]). */
  attachment?: (id: string) => AttachmentImage | undefined;
  /** The images attached to the post ([gallery] without ids). */
  attached?: () => AttachmentImage[];
  /** Filled with the names of the shortcodes stripped (shortcodes.ts), for the report. */
  unknownShortcodes?: Set<string>;
  /** Element ids (tests pass a counter). */
  newId?: () => string;
};

/** The block-level tags wpautop keeps out of paragraphs (WordPress's $allblocks, with media). */
const AUTOP_BLOCKS =
  "table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary|iframe|audio|video|source";
const OPENS_BLOCK = new RegExp(`(<(?:${AUTOP_BLOCKS})[\\s/>])`, "gi");
const CLOSES_BLOCK = new RegExp(`(</(?:${AUTOP_BLOCKS})>)`, "gi");
const STARTS_WITH_BLOCK = new RegExp(`^</?(?:${AUTOP_BLOCKS})[\\s/>]`, "i");
const ENDS_WITH_CLOSERS = new RegExp(`^([\\s\\S]*?)((?:\\s*</(?:${AUTOP_BLOCKS})>)+)$`, "i");

/** One chunk of wpautop text: a paragraph (newlines are line breaks) unless it is a block's own markup. */
function autopChunk(chunk: string): string {
  if (STARTS_WITH_BLOCK.test(chunk)) return chunk;
  const m = ENDS_WITH_CLOSERS.exec(chunk);
  const [text, closers] = m ? [m[1]!.trim(), m[2]!] : [chunk, ""];
  return text ? `<p>${text.replace(/\n/g, "<br>\n")}</p>${closers}` : closers;
}

/**
 * WordPress's wpautop, simplified: blank lines make paragraphs and newlines line breaks, in the
 * text between blocks; block tags (lists, quotes, tables…) start and end a paragraph, and <pre>
 * is left as it is.
 */
export function autop(text: string): string {
  const pres: string[] = [];
  const normalised = text
    .replace(/\r\n?/g, "\n")
    .replace(/<pre\b[\s\S]*?<\/pre>/gi, (pre) => `<pre data-autop="${pres.push(pre) - 1}"></pre>`)
    .replace(OPENS_BLOCK, "\n\n$1")
    .replace(CLOSES_BLOCK, "$1\n\n");
  return normalised
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map(autopChunk)
    .join("\n")
    .replace(/<pre data-autop="(\d+)"><\/pre>/g, (_, i: string) => pres[Number(i)] ?? "");
}

const { textContent } = DomUtils;
/** Markup of a node, non-ASCII characters kept as they are (only & < > " encoded). */
const getOuterHTML = (node: ChildNode) => DomUtils.getOuterHTML(node, { encodeEntities: "utf8" });

type Builder = { out: TStoryElement[]; inline: string; options: HtmlToElementsOptions };

const newId = (b: Builder) => (b.options.newId ?? randomUUID)();

function base(b: Builder, type: TStoryElement["type"], subtype: string | null = null): TStoryElement {
  return { id: newId(b), type, subtype, metadata: {} };
}

/** The HTML gathered from inline content at the top level, as a paragraph. */
function flushInline(b: Builder): void {
  const html = b.inline.trim();
  b.inline = "";
  if (html.replace(/<br\s*\/?>/gi, "").trim() === "") return;
  b.out.push({ ...base(b, "text"), text: `<p>${html}</p>` });
}

const innerHtml = (el: Element) => el.children.map((c) => getOuterHTML(c)).join("");
const classes = (el: Element) => (el.attribs.class ?? "").split(/\s+/);
const hasText = (el: ChildNode) => textContent(el).trim() !== "";

function findAll(el: Element, name: string): Element[] {
  const found: Element[] = [];
  const walk = (node: ChildNode) => {
    if (!isTag(node)) return;
    if (node.name === name) found.push(node);
    node.children.forEach(walk);
  };
  el.children.forEach(walk);
  return found;
}

function imageElement(b: Builder, img: Element, caption: string | null): TStoryElement | null {
  const src = (img.attribs.src ?? img.attribs["data-src"] ?? "").trim();
  if (!/^https?:\/\//i.test(src)) return null;
  const element: TStoryElement = { ...base(b, "image"), "image-s3-key": src, title: caption ?? "" };
  const alt = img.attribs.alt?.trim();
  if (alt) element.metadata = { alt: escapeHtmlText(alt) };
  const width = Number(img.attribs.width);
  const height = Number(img.attribs.height);
  if (Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)
    element["image-metadata"] = { width, height };
  return element;
}

/** A URL of a provider Masthead embeds, as its element; null for any other URL. */
function embedElement(b: Pick<Builder, "options">, url: string): TStoryElement | null {
  const id = (b.options.newId ?? randomUUID)();
  if (youtubeVideoId(url)) return { id, type: "youtube-video", subtype: null, metadata: {}, url };
  if (tweetIdFromUrl(url)) return { id, type: "jsembed", subtype: "tweet", metadata: {}, url };
  if (/^https:\/\/(www\.)?instagram\.com\/(p|reel|tv)\/[A-Za-z0-9_-]+/i.test(url))
    return { id, type: "jsembed", subtype: "instagram", metadata: {}, url };
  return null;
}

/** A URL as an embed when it is one, else a paragraph linking to it. */
function embedOrLink(b: Builder, url: string): void {
  const embed = embedElement(b, url);
  if (embed) b.out.push(embed);
  else if (/^https?:\/\//i.test(url))
    b.out.push({ ...base(b, "text"), text: `<p><a href="${escapeHtml(url)}">${escapeHtmlText(url)}</a></p>` });
}

function figure(b: Builder, el: Element): void {
  const cls = classes(el);
  const caption = el.children.find((c): c is Element => isTag(c) && c.name === "figcaption");
  const captionHtml = caption ? innerHtml(caption).trim() : null;
  const isGallery = cls.includes("wp-block-gallery") || cls.includes("kg-gallery-card") || cls.includes("gallery");
  if (isGallery) {
    const images = findAll(el, "img").flatMap((img) => {
      const own = img.parent && isTag(img.parent) ? img.parent : null;
      const fig = own?.name === "figure" ? own : own?.parent && isTag(own.parent) ? own.parent : null;
      const figcaption = fig?.children.find((c): c is Element => isTag(c) && c.name === "figcaption");
      const image = imageElement(b, img, figcaption ? innerHtml(figcaption).trim() : null);
      return image ? [image] : [];
    });
    if (images.length > 0) {
      b.out.push({ ...base(b, "composite", "image-gallery"), title: captionHtml ?? "", "story-elements": images });
    }
    return;
  }
  if (cls.includes("wp-block-embed") || cls.some((c) => c.startsWith("kg-embed"))) {
    const iframe = findAll(el, "iframe")[0];
    const quote = findAll(el, "blockquote")[0];
    if (quote) return blockquote(b, quote);
    const video = findAll(el, "video")[0] ?? findAll(el, "audio")[0];
    if (video) media(b, video);
    else embedOrLink(b, iframe?.attribs.src ?? textContent(el).trim().split(/\s+/)[0] ?? "");
    // Masthead's embeds have no caption: the figure's is the paragraph after it.
    if (captionHtml && caption && hasText(caption))
      b.out.push({ ...base(b, "text"), text: `<p><em>${captionHtml}</em></p>` });
    return;
  }
  if (cls.includes("wp-block-table") || cls.includes("wp-block-audio") || cls.includes("wp-block-video")) {
    const inner = findAll(el, "table")[0] ?? findAll(el, "video")[0] ?? findAll(el, "audio")[0];
    if (inner?.name === "table") return table(b, inner, captionHtml);
    if (inner) media(b, inner);
    if (captionHtml && caption && hasText(caption))
      b.out.push({ ...base(b, "text"), text: `<p><em>${captionHtml}</em></p>` });
    return;
  }
  const img = findAll(el, "img")[0];
  if (img) {
    const image = imageElement(b, img, captionHtml);
    if (image) b.out.push(image);
    return;
  }
  for (const child of el.children) if (!(isTag(child) && child.name === "figcaption")) block(b, child);
}

/** <video>/<audio> (its src or first <source>): a provider's embed, else a "file" element linking to the file. */
function media(b: Builder, el: Element): void {
  const src = (el.attribs.src ?? findAll(el, "source")[0]?.attribs.src ?? "").trim();
  if (!/^https?:\/\//i.test(src)) return;
  const embed = embedElement(b, src);
  if (embed) b.out.push(embed);
  else b.out.push({ ...base(b, "file"), "file-url": src });
}

const CELL_SPAN = /^\d{1,3}$/;

/** One row's cells, their spans kept. */
function tableRow(tr: Element): string {
  const cells = tr.children.filter((c): c is Element => isTag(c) && (c.name === "td" || c.name === "th"));
  const html = cells.map((cell) => {
    const span = (name: "colspan" | "rowspan", value = cell.attribs[name] ?? "") =>
      CELL_SPAN.test(value) ? ` ${name}="${value}"` : "";
    const spans = span("colspan") + span("rowspan");
    return `<${cell.name}${spans}>${innerHtml(cell).trim()}</${cell.name}>`;
  });
  return html.length ? `<tr>${html.join("")}</tr>` : "";
}

/**
 * A table as a "text" element of subtype "table" holding it (caption, head, body and foot rows,
 * cells with their spans); a layout table (an image, embed or table inside it): its blocks one by
 * one, as any container.
 */
function table(b: Builder, el: Element, caption: string | null = null): void {
  if (["img", "iframe", "table", "video", "audio"].some((name) => findAll(el, name).length > 0)) {
    for (const child of el.children) block(b, child);
    return flushInline(b);
  }
  if (!hasText(el)) return;
  const part = (tr: Element) => {
    const parent = tr.parent && isTag(tr.parent) ? tr.parent.name : "";
    return parent === "thead" || parent === "tfoot" ? parent : "tbody";
  };
  const rows = findAll(el, "tr");
  const section = (name: string) => {
    const html = rows
      .filter((tr) => part(tr) === name)
      .map(tableRow)
      .join("");
    return html ? `<${name}>${html}</${name}>` : "";
  };
  const own = el.children.find((c): c is Element => isTag(c) && c.name === "caption");
  const title = caption ?? (own && hasText(own) ? innerHtml(own).trim() : null);
  const text = `<table>${title ? `<caption>${title}</caption>` : ""}${section("thead")}${section("tbody")}${section("tfoot")}</table>`;
  b.out.push({ ...base(b, "text", "table"), text });
}

function blockquote(b: Builder, el: Element): void {
  const cls = classes(el);
  if (cls.includes("twitter-tweet") || cls.includes("instagram-media")) {
    const links = findAll(el, "a").map((a) => a.attribs.href ?? "");
    const permalink = el.attribs["data-instgrm-permalink"];
    const url = [permalink ?? "", ...links.reverse()].find((href) => embedElement(b, href)) ?? null;
    if (url) return embedOrLink(b, url);
  }
  const cite = el.children.find((c): c is Element => isTag(c) && (c.name === "cite" || c.name === "footer"));
  const text = el.children
    .filter((c) => c !== cite)
    .map((c) => getOuterHTML(c))
    .join("")
    .trim();
  if (!text.replace(/<[^>]*>/g, "").trim()) return;
  const attribution = cite
    ? textContent(cite)
        .trim()
        .replace(/^[—–-]\s*/, "")
    : "";
  b.out.push({ ...base(b, "blockquote"), text, metadata: { content: text, attribution: escapeHtmlText(attribution) } });
}

const INLINE = new Set(["a", "strong", "b", "em", "i", "u", "span", "br", "code", "small", "sup", "sub", "mark", "s"]);

/** One node at block level. */
function block(b: Builder, node: ChildNode): void {
  if (isText(node)) {
    const text = node.data;
    // A URL alone on its line (WordPress's auto-embeds) when it is one of the providers'.
    const lone = text.trim();
    if (/^https?:\/\/\S+$/.test(lone) && b.inline.trim() === "" && embedElement(b, lone)) return embedOrLink(b, lone);
    b.inline += getOuterHTML(node);
    return;
  }
  if (!isTag(node)) return;
  const name = node.name;
  if (INLINE.has(name)) {
    if (name === "a" && findAll(node, "img").length === 1 && !hasText(node)) {
      flushInline(b);
      return figure(b, node);
    }
    b.inline += getOuterHTML(node);
    return;
  }
  flushInline(b);
  switch (name) {
    case "p": {
      const meaningful = node.children.filter(
        (c) => !(isText(c) && c.data.trim() === "") && !(isTag(c) && c.name === "br"),
      );
      const only = meaningful.length === 1 ? meaningful[0]! : null;
      if (only && isText(only) && /^https?:\/\/\S+$/.test(only.data.trim()) && embedElement(b, only.data.trim()))
        return embedOrLink(b, only.data.trim());
      if (findAll(node, "img").length > 0 && !hasText(node)) return figure(b, node);
      if (!hasText(node)) return;
      b.out.push({ ...base(b, "text"), text: `<p>${innerHtml(node).trim()}</p>` });
      return;
    }
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6": {
      if (!hasText(node)) return;
      const level = name === "h1" || name === "h2" ? "h2" : "h3";
      b.out.push({ ...base(b, "text"), text: `<${level}>${innerHtml(node).trim()}</${level}>` });
      return;
    }
    case "ul":
    case "ol":
      if (hasText(node)) b.out.push({ ...base(b, "text"), text: getOuterHTML(node) });
      return;
    case "blockquote":
      return blockquote(b, node);
    case "figure":
      return figure(b, node);
    case "img": {
      const image = imageElement(b, node, null);
      if (image) b.out.push(image);
      return;
    }
    case "iframe":
      return embedOrLink(b, node.attribs.src ?? "");
    case "table":
      return table(b, node);
    case "audio":
    case "video":
      return media(b, node);
    case "pre": {
      // Its lines as they show: a <br> in it is a line break too.
      const lines = parseDocument(innerHtml(node).replace(/<br\s*\/?>/gi, "\n"));
      const code = textContent(lines)
        .replace(/\r\n?/g, "\n")
        .replace(/^\n+|\n+$/g, "");
      if (code.trim())
        b.out.push({ ...base(b, "text"), text: `<p>${escapeHtmlText(code).replace(/\n/g, "<br>")}</p>` });
      return;
    }
    case "hr":
    case "script":
    case "style":
    case "noscript":
    case "template":
    case "form":
    case "head":
    case "title":
    case "svg":
      return;
    default:
      // Containers (div, section, article, table…): their blocks one by one.
      for (const child of node.children) block(b, child);
      flushInline(b);
  }
}

/** HTML (a title, an excerpt) as the plain text it shows: tags dropped, entities decoded, spaces collapsed. */
export function htmlToPlainText(html: string): string {
  const doc = parseDocument(html.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " "));
  return textContent(doc).replace(/\s+/g, " ").trim();
}

/** The story elements of a post's HTML (see the file's comment). */
export function htmlToElements(html: string, options: HtmlToElementsOptions = {}): TStoryElement[] {
  let source = html.replace(/<!--\s*\/?wp:[\s\S]*?-->/g, "");
  source = expandShortcodes(source, {
    attachment: options.attachment,
    attached: options.attached,
    unknown: options.unknownShortcodes,
  });
  if (options.autop) source = autop(source);
  const doc = parseDocument(source, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const b: Builder = { out: [], inline: "", options };
  for (const node of doc.children) block(b, node);
  flushInline(b);
  return b.out;
}
