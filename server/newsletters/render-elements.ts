/**
 * A story's elements (cards → story-elements, ../publishing/cards.schema.ts) as e-mail HTML and
 * plain text. Pure.
 *
 * Mail clients ignore style sheets and run no script, so every element is table-free block markup
 * with inline styles (the layout table is ./render-mail.ts's), and:
 * - text, headings, quotes and lists: the stored HTML (sanitised at save) goes through an allow-list
 *   again, narrower than the site's (p, br, strong, em, b, i, a, ul, ol, li, h2, h3, blockquote),
 *   each tag given its inline style and nothing else it carried (no class, no style of its own);
 *   links keep only http(s) and mailto hrefs, and http(s) ones go through `ctx.link`
 *   (the click redirect when the newsletter counts clicks);
 * - images: from the image host (`ctx.imageUrl`), `width` at most 600 (the layout's width), height
 *   kept in proportion;
 * - embeds (YouTube, tweets, Instagram, Facebook posts, maps) and files: a linked preview (a title,
 *   YouTube's thumbnail) to the original. Never an iframe or a script: mail clients drop them.
 *
 * A reader without access to a paywalled story gets its free part: the elements before its paywall
 * point (../publishing/paywall-point.ts, as every channel cuts it), then a "Subscribe to read on"
 * link (./render-mail.ts).
 */
import sanitizeHtml from "sanitize-html";

import type { Translate } from "@/i18n/translate";
import { ownValue } from "@/server/own-keys";

import type { TCard, TStoryElement } from "../publishing/cards.schema";
import { escapeXml } from "../text/xml";

export const MAIL_WIDTH = 600;

export type ElementContext = {
  /** The absolute URL of an image key on the publisher's image host. */
  imageUrl: (key: string) => string;
  /** The URL a link of the mail points to (the click redirect, or the URL itself). */
  link: (url: string) => string;
  /** The newsletter's accent colour (links, quote bars), already checked. */
  accent: string;
  /** The reader's words for what Masthead adds (a preview's label: "Watch the video"). */
  t: Translate<"mail">;
};

export type Rendered = { html: string; text: string };

/** Text for HTML and attribute values: the five characters that matter escaped (server/text/xml.ts). */
export const escapeHtml = (text: string): string => escapeXml(text);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " ", apos: "'" };

/** Plain text of stored HTML: tags dropped, entities read. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|li|h2|h3|blockquote)>/gi, "\n")
    .replace(/<li[^>]*>/gi, "- ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#?[a-z0-9]+);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      const named = ownValue(ENTITIES, lower);
      if (named !== undefined) return named;
      const code = lower.startsWith("#x")
        ? parseInt(lower.slice(2), 16)
        : lower.startsWith("#")
          ? Number(lower.slice(1))
          : NaN;
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const FONT = "font-family:Georgia,'Times New Roman',serif;";
export const STYLES = {
  p: `margin:0 0 16px;${FONT}font-size:17px;line-height:1.6;color:#1f2937;`,
  h2: `margin:24px 0 12px;font-family:Arial,Helvetica,sans-serif;font-size:22px;line-height:1.3;color:#111827;`,
  h3: `margin:20px 0 10px;font-family:Arial,Helvetica,sans-serif;font-size:19px;line-height:1.3;color:#111827;`,
  list: `margin:0 0 16px;padding-left:24px;${FONT}font-size:17px;line-height:1.6;color:#1f2937;`,
  li: "margin:0 0 6px;",
  caption: "margin:6px 0 20px;font-family:Arial,Helvetica,sans-serif;font-size:13px;line-height:1.4;color:#6b7280;",
  img: "display:block;max-width:100%;height:auto;border:0;",
  preview:
    "margin:0 0 20px;padding:12px 16px;border:1px solid #e5e7eb;border-radius:6px;font-family:Arial,Helvetica,sans-serif;font-size:15px;",
};

const quoteStyle = (accent: string) =>
  `margin:0 0 20px;padding:4px 0 4px 16px;border-left:4px solid ${accent};${FONT}font-size:19px;line-height:1.5;font-style:italic;color:#374151;`;

/** Stored HTML through the mail allow-list, each tag with its inline style, links through `ctx.link`. */
export function mailHtml(html: string, ctx: ElementContext): string {
  const styled = (style: string) => (tagName: string) => ({ tagName, attribs: { style } });
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "em", "b", "i", "a", "ul", "ol", "li", "h2", "h3", "blockquote"],
    allowedAttributes: { "*": ["style"], a: ["href", "style"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowProtocolRelative: false,
    transformTags: {
      p: styled(STYLES.p),
      h2: styled(STYLES.h2),
      h3: styled(STYLES.h3),
      ul: styled(STYLES.list),
      ol: styled(STYLES.list),
      li: styled(STYLES.li),
      blockquote: styled(quoteStyle(ctx.accent)),
      a: (tagName, attribs): sanitizeHtml.Tag => {
        const href = (attribs.href ?? "").trim();
        const style = `color:${ctx.accent};text-decoration:underline;`;
        if (/^https?:\/\//i.test(href)) return { tagName, attribs: { href: ctx.link(href), style } };
        if (/^mailto:/i.test(href)) return { tagName, attribs: { href, style } };
        return { tagName: "span", attribs: {} };
      },
    },
  });
}

/** An image sized for the mail: at most 600 wide, its height in proportion (16:9 when unknown). */
export function sizedImage(metadata: unknown): { width: number; height: number } {
  const m = (metadata && typeof metadata === "object" ? metadata : {}) as { width?: unknown; height?: unknown };
  const w = typeof m.width === "number" && m.width > 0 ? m.width : MAIL_WIDTH;
  const h = typeof m.height === "number" && m.height > 0 ? m.height : Math.round((w * 9) / 16);
  const width = Math.min(MAIL_WIDTH, Math.round(w));
  return { width, height: Math.max(1, Math.round((h * width) / w)) };
}

export function imageBlock(
  args: { src: string; metadata: unknown; alt: string; caption?: string | null; href?: string | null },
  ctx: ElementContext,
): Rendered {
  const { width, height } = sizedImage(args.metadata);
  const img = `<img src="${escapeHtml(args.src)}" width="${width}" height="${height}" alt="${escapeHtml(args.alt)}" style="${STYLES.img}">`;
  const linked = args.href ? `<a href="${escapeHtml(ctx.link(args.href))}">${img}</a>` : img;
  const caption = args.caption ? `<p style="${STYLES.caption}">${escapeHtml(args.caption)}</p>` : "";
  return {
    html: `<div style="margin:0 0 ${caption ? 0 : 20}px;">${linked}</div>${caption}`,
    text: [args.caption || args.alt ? `[Image: ${args.caption || args.alt}]` : "", args.href ?? ""]
      .filter(Boolean)
      .join("\n"),
  };
}

/** A linked preview of something a mail cannot hold (an embed, a video, a file). */
function previewBlock(
  args: { title: string; url: string; label: string; thumbnail?: string | null },
  ctx: ElementContext,
): Rendered {
  const href = escapeHtml(ctx.link(args.url));
  const thumb = args.thumbnail
    ? `<a href="${href}"><img src="${escapeHtml(args.thumbnail)}" width="${MAIL_WIDTH - 34}" height="${Math.round(((MAIL_WIDTH - 34) * 9) / 16)}" alt="${escapeHtml(args.title)}" style="${STYLES.img}margin:0 0 8px;"></a>`
    : "";
  return {
    html:
      `<div style="${STYLES.preview}">${thumb}<a href="${href}" style="color:${ctx.accent};font-weight:bold;text-decoration:none;">` +
      `${escapeHtml(args.title)}</a><div style="margin-top:4px;font-size:13px;color:#6b7280;">${escapeHtml(args.label)}</div></div>`,
    text: `${args.title} (${args.label}): ${args.url}`,
  };
}

const isWebUrl = (url: unknown): url is string => typeof url === "string" && /^https?:\/\/[^\s]+$/i.test(url);
const plain = (html: unknown) => (typeof html === "string" ? htmlToText(html) : "");

const EMBED_LABELS = {
  tweet: "elementViewOnX",
  instagram: "elementViewOnInstagram",
  "facebook-post": "elementViewOnFacebook",
  location: "elementViewMap",
} as const;

/** One element; null when it has nothing a mail can show. */
export function renderElement(element: TStoryElement, ctx: ElementContext): Rendered | null {
  switch (element.type) {
    case "text": {
      const html = mailHtml(element.text ?? "", ctx);
      if (!html.trim()) return null;
      // A bare text without a block tag gets its paragraph.
      const block = /^\s*<(p|ul|ol|h2|h3|blockquote)\b/i.test(html) ? html : `<p style="${STYLES.p}">${html}</p>`;
      return { html: block, text: plain(element.text) };
    }
    case "title": {
      const text = plain(element.text ?? element.title);
      return text ? { html: `<h2 style="${STYLES.h2}">${escapeHtml(text)}</h2>`, text: `## ${text}` } : null;
    }
    case "summary": {
      const text = plain(element.text);
      return text ? { html: `<p style="${STYLES.p}font-style:italic;">${escapeHtml(text)}</p>`, text } : null;
    }
    case "quote":
    case "blockquote":
    case "bigfact": {
      const text = plain(element.text);
      if (!text) return null;
      const attribution = plain(element.metadata?.attribution);
      const by = attribution
        ? `<p style="${STYLES.caption}font-style:normal;">${element.type === "bigfact" ? "" : "— "}${escapeHtml(attribution)}</p>`
        : "";
      const size = element.type === "bigfact" ? "font-size:28px;font-weight:bold;font-style:normal;" : "";
      return {
        html: `<blockquote style="${quoteStyle(ctx.accent)}${size}">${escapeHtml(text)}${by}</blockquote>`,
        text: `> ${text.replace(/\n/g, "\n> ")}${attribution ? `\n> — ${attribution}` : ""}`,
      };
    }
    case "image": {
      const key = element["image-s3-key"];
      if (!key) return null;
      return imageBlock(
        {
          src: ctx.imageUrl(key),
          metadata: element["image-metadata"],
          alt: plain(element.metadata?.alt) || plain(element.title),
          caption: [plain(element.title), plain(element["image-attribution"])].filter(Boolean).join(" · ") || null,
        },
        ctx,
      );
    }
    case "composite": {
      const parts = (element["story-elements"] ?? [])
        .map((item) => renderElement({ ...item, "story-elements": undefined }, ctx))
        .filter((r): r is Rendered => r !== null);
      return parts.length
        ? { html: parts.map((p) => p.html).join(""), text: parts.map((p) => p.text).join("\n\n") }
        : null;
    }
    case "youtube-video": {
      const id = element["video-id"] && /^[A-Za-z0-9_-]{6,20}$/.test(element["video-id"]) ? element["video-id"] : null;
      const url = id ? `https://www.youtube.com/watch?v=${id}` : isWebUrl(element.url) ? element.url : null;
      if (!url) return null;
      return previewBlock(
        {
          title: plain(element.title) || ctx.t("elementWatchVideo"),
          url,
          label: ctx.t("elementYouTube"),
          thumbnail: id ? `https://i.ytimg.com/vi/${id}/hqdefault.jpg` : null,
        },
        ctx,
      );
    }
    case "jsembed": {
      const tweet = element["tweet-id"];
      const url =
        element.subtype === "tweet" && tweet
          ? `https://x.com/i/status/${tweet}`
          : [element.url, element["embed-url"]].find(isWebUrl);
      if (!url) return null;
      const label = ctx.t(ownValue(EMBED_LABELS, element.subtype ?? "") ?? "elementViewOriginal");
      return previewBlock({ title: plain(element.title) || plain(element.description) || label, url, label }, ctx);
    }
    case "file": {
      const url = element["file-url"];
      if (!isWebUrl(url)) return null;
      return previewBlock(
        { title: element["file-name"] || ctx.t("elementDownloadFile"), url, label: ctx.t("elementFile") },
        ctx,
      );
    }
    default:
      return null;
  }
}

/** Every element of the story's cards, in order. */
export function storyElements(cards: unknown): TStoryElement[] {
  if (!Array.isArray(cards)) return [];
  return (cards as TCard[]).flatMap((card) => (Array.isArray(card?.["story-elements"]) ? card["story-elements"] : []));
}

/** The elements as one HTML fragment and one text. */
export function renderElements(elements: readonly TStoryElement[], ctx: ElementContext): Rendered {
  const parts = elements.map((e) => renderElement(e, ctx)).filter((r): r is Rendered => r !== null);
  return { html: parts.map((p) => p.html).join("\n"), text: parts.map((p) => p.text).join("\n\n") };
}
