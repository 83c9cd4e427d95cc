/**
 * WordPress shortcodes in a post's HTML, as the HTML they stand for, so that none reaches readers
 * as literal text (html-to-elements.ts reads the result):
 *
 * - `[caption …]<img …> text[/caption]` (and `[wp_caption]`; the text or its `caption="…"`) → a
 *   figure with its figcaption.
 * - `[gallery ids="1,2"]` (or `include="…"`) → a gallery of those attachments; `[gallery]`
 *   without ids → the images attached to the post, in their order.
 * - `[embed]URL[/embed]`, `[youtube URL]`, `[youtube=URL]`, `[vimeo URL]`, `[tweet URL]`,
 *   `[twitter url=…]`, `[instagram url=…]` → the URL on a line of its own (an embed when
 *   Masthead embeds its provider, else a link); `[video …]` and `[audio …]` (their `src`, a format
 *   attribute such as `mp4=` or `mp3=`, or a bare URL) → <video>/<audio> (a provider's embed, or
 *   the file).
 * - `[[name]]` is the text "[name]", as in WordPress.
 * - Any other shortcode: its tags are dropped and the text it wraps kept; its name is added to
 *   `unknown`, for the report. A bracketed word inside a sentence ("[sic]", "[citation needed]")
 *   is prose, not a shortcode: a name counts as one when it has attributes, a closing tag, a
 *   "-" or "_" in it, or stands alone on its line.
 */
import { escapeXml } from "../../text/xml";

/** An image of the export's attachments (a WordPress media item): its URL, caption and alt text. */
export type AttachmentImage = { url: string; caption?: string | null; alt?: string | null };

type ShortcodeOptions = {
  /** A WordPress attachment by its post id ([gallery ids]). */
  attachment?: (id: string) => AttachmentImage | undefined;
  /** The images attached to the post ([gallery] without ids). */
  attached?: () => AttachmentImage[];
  /** The names of the shortcodes not known here, filled as they are met. */
  unknown?: Set<string>;
};

/** An attribute of a shortcode's opening tag (`name="…"`, `name='…'`, `name=…`), or null. */
function attrOf(shortcode: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s\\]]+))`, "i").exec(shortcode);
  return m ? (m[1] ?? m[2] ?? m[3] ?? "") : null;
}

/** The first http(s) URL of a shortcode: `=URL`, an attribute named in `names`, or a bare one. */
function urlOf(attrs: string, names: readonly string[]): string | null {
  for (const name of names) {
    const value = attrOf(attrs, name);
    if (value && /^https?:\/\//i.test(value.trim())) return value.trim();
  }
  const bare = /(?:^|[\s=])(https?:\/\/[^\s"'\]]+)/i.exec(attrs);
  return bare?.[1] ?? null;
}

const block = (html: string) => `\n\n${html}\n\n`;

function figureHtml(image: AttachmentImage): string {
  const caption = image.caption ? `<figcaption>${escapeXml(image.caption)}</figcaption>` : "";
  return `<figure><img src="${escapeXml(image.url)}" alt="${escapeXml(image.alt ?? "")}">${caption}</figure>`;
}

function gallery(attrs: string, options: ShortcodeOptions): string {
  const ids = (attrOf(attrs, "ids") ?? attrOf(attrs, "include") ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const images = ids.length > 0 ? ids.flatMap((id) => options.attachment?.(id) ?? []) : (options.attached?.() ?? []);
  return images.length ? block(`<figure class="wp-block-gallery">${images.map(figureHtml).join("")}</figure>`) : "";
}

function caption(attrs: string, inner: string): string {
  const link = /<a\b[^>]*>\s*<img\b[^>]*>\s*<\/a>/i.exec(inner);
  const media = link?.[0] ?? /<img\b[^>]*>/i.exec(inner)?.[0] ?? "";
  const text = inner.replace(media, "").trim() || escapeXml(attrOf(attrs, "caption") ?? "");
  return block(`<figure>${media}<figcaption>${text}</figcaption></figure>`);
}

const MEDIA_ATTRS = {
  video: ["src", "mp4", "m4v", "webm", "ogv", "wmv", "flv"],
  audio: ["src", "mp3", "m4a", "ogg", "wav", "wma"],
} as const;

/** A URL on its own line: html-to-elements.ts makes it an embed or a link. */
const ownLine = (url: string | null) => (url ? block(`<p>${escapeXml(url)}</p>`) : "");

const URL_SHORTCODES = new Set(["youtube", "vimeo", "tweet", "twitter", "instagram", "soundcloud", "dailymotion"]);

const LINE_START = /(?:^|\n|<p>|<br\s*\/?>)[ \t]*$/;
const LINE_END = /^[ \t]*(?:$|\n|<\/p>|<br\b)/;

/** Any other shortcode: its tags dropped, its text kept, its name said (see the file's comment). */
function unknownShortcodes(html: string, unknown: Set<string> | undefined): string {
  const closed = new Set([...html.matchAll(/\[\/([a-z][\w-]*)\]/gi)].map((m) => m[1]!.toLowerCase()));
  return html.replace(
    /\[(\/)?([a-z][\w-]*)((?:\s+[^\]]*?)?)(\/)?\]/gi,
    (whole: string, close, rawName: string, attrs: string, selfClose, offset: number) => {
      const name = rawName.toLowerCase();
      const alone = () =>
        attrs.trim() === "" &&
        LINE_START.test(html.slice(Math.max(0, offset - 20), offset)) &&
        LINE_END.test(html.slice(offset + whole.length, offset + whole.length + 10));
      const isShortcode =
        close !== undefined ||
        closed.has(name) ||
        selfClose !== undefined ||
        /[-_]/.test(name) ||
        /^\s+[\w-]+\s*=/.test(attrs) ||
        alone();
      if (!isShortcode) return whole;
      unknown?.add(name);
      return "";
    },
  );
}

/** A post's shortcodes as the HTML they stand for (see the file's comment). */
export function expandShortcodes(html: string, options: ShortcodeOptions = {}): string {
  if (!html.includes("[")) return html;
  // [[name]] is WordPress's way of writing "[name]" as text.
  const expanded = html
    .replace(/\[\[([^[\]]+)\]\]/g, "&#91;$1&#93;")
    .replace(/\[(caption|wp_caption)\b([^\]]*)\]([\s\S]*?)\[\/\1\]/gi, (_, _n, attrs: string, inner: string) =>
      caption(attrs, inner),
    )
    .replace(/\[gallery\b([^\]]*)\]/gi, (_, attrs: string) => gallery(attrs, options))
    .replace(/\[embed\b[^\]]*\]\s*(https?:\/\/[^\s[<]+)\s*\[\/embed\]/gi, (_, url: string) => ownLine(url))
    .replace(
      /\[(video|audio)\b([^\]]*)\](?:([\s\S]*?)\[\/\1\])?/gi,
      (_, kind: string, attrs: string, inner?: string) => {
        const tag = kind.toLowerCase() as keyof typeof MEDIA_ATTRS;
        const url = urlOf(attrs, MEDIA_ATTRS[tag]) ?? urlOf(inner ?? "", []);
        return url ? block(`<${tag} src="${escapeXml(url)}"></${tag}>`) : "";
      },
    )
    .replace(
      /\[([a-z]+)\b([^\]]*)\](?:\s*(https?:\/\/[^\s[<]+)\s*\[\/\1\])?/gi,
      (whole: string, name: string, attrs: string, inner?: string) => {
        if (!URL_SHORTCODES.has(name.toLowerCase())) return whole;
        return ownLine(urlOf(attrs, ["url", "src", "id"]) ?? inner ?? null);
      },
    );
  // A known shortcode's tag left over (a [caption] never closed) is not text either.
  const leftovers = expanded.replace(/\[\/?(?:caption|wp_caption|gallery|embed|video|audio)\b[^\]]*\]/gi, "");
  return unknownShortcodes(leftovers, options.unknown);
}
