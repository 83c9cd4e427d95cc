/**
 * A Ghost post's body as HTML when its export has no `html`: its Lexical (Ghost 5) or Mobiledoc
 * (Ghost 1–4) document rendered as Ghost renders the common parts, for html-to-elements.ts to
 * read. Pure. Text formats (bold, italic, code, links), paragraphs, headings, lists, quotes, line
 * breaks, and the cards: image, gallery, embed (YouTube, X, Instagram and others by URL), html,
 * markdown (as text), code, divider (hr), bookmark (a link), and paywall (Ghost's
 * `<!--members-only-->`, where the free part ends: ghost-urls.ts). Other cards are left out; the
 * caller says so in the report (`skipped`).
 */
import { escapeHtml, escapeHtmlText } from "../../security/html";
import { jsonTooDeep, MAX_DEPTH } from "../limits";
import { MEMBERS_ONLY } from "./ghost-urls";

const esc = escapeHtmlText;
const attr = escapeHtml;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export type Rendered = { html: string; skipped: string[] };

function image(src: string, alt: string, caption: string): string {
  if (!src) return "";
  const cap = caption ? `<figcaption>${caption}</figcaption>` : "";
  return `<figure><img src="${attr(src)}" alt="${attr(alt)}">${cap}</figure>`;
}

function gallery(images: unknown[], caption: string): string {
  const inner = images
    .filter(isObj)
    .map((i) => image(str(i.src), str(i.alt), str(i.caption)))
    .join("");
  return inner
    ? `<figure class="kg-gallery-card">${inner}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>`
    : "";
}

function embed(url: string, html: string): string {
  if (url) return `<p>${esc(url)}</p>`;
  return html;
}

/** A card of either format by its name and payload; null when it is not one this renders. */
function card(name: string, p: Json): string | null {
  switch (name) {
    case "image":
      return image(str(p.src), str(p.alt ?? p.altText), str(p.caption));
    case "gallery":
      return gallery(arr(p.images), str(p.caption));
    case "embed":
      return embed(str(p.url), str(p.html));
    case "html":
      return str(p.html);
    case "markdown":
      return str(p.markdown)
        .split(/\n\s*\n/)
        .filter((t) => t.trim())
        .map((t) => `<p>${esc(t.trim())}</p>`)
        .join("");
    case "code":
    case "codeblock":
      return `<pre><code>${esc(str(p.code))}</code></pre>`;
    case "hr":
    case "horizontalrule":
      return "<hr>";
    case "paywall":
      return MEMBERS_ONLY;
    case "bookmark": {
      const url = str(p.url);
      const title = isObj(p.metadata) ? str(p.metadata.title) : "";
      return url ? `<p><a href="${attr(url)}">${esc(title || url)}</a></p>` : "";
    }
    default:
      return null;
  }
}

// ─── Mobiledoc ───────────────────────────────────────────────────────────────────────────────

function mobiledocMarkers(markers: unknown[], markups: unknown[], atoms: unknown[]): string {
  let out = "";
  const open: string[] = [];
  for (const m of markers) {
    const [type, opens, closes, value] = arr(m) as [number, number[], number, unknown];
    for (const index of arr(opens)) {
      const [tag, attrs] = arr(markups[index as number]) as [string, string[] | undefined];
      const t = str(tag).toLowerCase();
      const pairs = arr(attrs);
      const href = t === "a" ? pairs[pairs.indexOf("href") + 1] : undefined;
      out += t === "a" ? `<a href="${attr(str(href))}">` : `<${t}>`;
      open.push(t);
    }
    if (type === 1) {
      const [, text] = arr(atoms[value as number]) as [string, string];
      out += esc(str(text));
    } else out += esc(str(value));
    for (let i = 0; i < (closes || 0); i++) out += `</${open.pop()}>`;
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

function renderMobiledoc(doc: Json): Rendered {
  const skipped: string[] = [];
  const markups = arr(doc.markups);
  const atoms = arr(doc.atoms);
  const cards = arr(doc.cards);
  const html = arr(doc.sections)
    .map((s) => {
      const section = arr(s);
      const kind = section[0];
      if (kind === 1) {
        const tag = str(section[1]).toLowerCase() || "p";
        const safeTag = /^(p|h[1-6]|blockquote|aside|pull-quote)$/.test(tag)
          ? tag === "aside" || tag === "pull-quote"
            ? "blockquote"
            : tag
          : "p";
        return `<${safeTag}>${mobiledocMarkers(arr(section[2]), markups, atoms)}</${safeTag}>`;
      }
      if (kind === 3) {
        const tag = str(section[1]).toLowerCase() === "ol" ? "ol" : "ul";
        return `<${tag}>${arr(section[2])
          .map((item) => `<li>${mobiledocMarkers(arr(item), markups, atoms)}</li>`)
          .join("")}</${tag}>`;
      }
      if (kind === 10) {
        const [name, payload] = arr(cards[section[1] as number]) as [string, Json];
        const rendered = card(str(name), isObj(payload) ? payload : {});
        if (rendered === null) skipped.push(`a ${str(name)} card`);
        return rendered ?? "";
      }
      return "";
    })
    .join("\n");
  return { html, skipped };
}

// ─── Lexical ─────────────────────────────────────────────────────────────────────────────────

/** Lexical's text format bits: bold 1, italic 2, strikethrough 4, underline 8, code 16. */
function lexicalText(node: Json): string {
  let text = esc(str(node.text));
  const format = typeof node.format === "number" ? node.format : 0;
  if (format & 16) text = `<code>${text}</code>`;
  if (format & 2) text = `<em>${text}</em>`;
  if (format & 1) text = `<strong>${text}</strong>`;
  return text;
}

function lexicalInline(children: unknown[]): string {
  return children
    .filter(isObj)
    .map((c) => {
      if (c.type === "text" || c.type === "extended-text") return lexicalText(c);
      if (c.type === "linebreak") return "<br>";
      if (c.type === "link" || c.type === "autolink")
        return `<a href="${attr(str(c.url))}">${lexicalInline(arr(c.children))}</a>`;
      return lexicalInline(arr(c.children));
    })
    .join("");
}

function lexicalBlock(node: Json, skipped: string[]): string {
  const children = arr(node.children);
  switch (node.type) {
    case "paragraph":
      return `<p>${lexicalInline(children)}</p>`;
    case "heading":
    case "extended-heading": {
      const tag = /^h[1-6]$/.test(str(node.tag)) ? str(node.tag) : "h2";
      return `<${tag}>${lexicalInline(children)}</${tag}>`;
    }
    case "quote":
    case "extended-quote":
    case "aside":
      return `<blockquote><p>${lexicalInline(children)}</p></blockquote>`;
    case "list": {
      const tag = node.listType === "number" ? "ol" : "ul";
      const items = children
        .filter(isObj)
        .map((item) => `<li>${lexicalInline(arr(item.children))}</li>`)
        .join("");
      return `<${tag}>${items}</${tag}>`;
    }
    default: {
      const rendered = card(str(node.type), node);
      if (rendered === null) skipped.push(`a ${str(node.type) || "unknown"} card`);
      return rendered ?? "";
    }
  }
}

function renderLexical(doc: Json): Rendered {
  const skipped: string[] = [];
  const root = isObj(doc.root) ? doc.root : {};
  const html = arr(root.children)
    .filter(isObj)
    .map((n) => lexicalBlock(n, skipped))
    .join("\n");
  return { html, skipped };
}

/** The post's HTML: `html` as exported, else its Lexical, else its Mobiledoc, rendered. */
export function ghostBodyHtml(post: { html?: unknown; lexical?: unknown; mobiledoc?: unknown }): Rendered {
  if (typeof post.html === "string" && post.html.trim()) return { html: post.html, skipped: [] };
  for (const [field, render] of [
    ["lexical", renderLexical],
    ["mobiledoc", renderMobiledoc],
  ] as const) {
    const raw = post[field];
    if (typeof raw !== "string" || !raw.trim()) continue;
    // Too deep to render (see limits.ts; the Ghost reader refuses such an export before this).
    if (jsonTooDeep(raw)) return { html: "", skipped: [`its ${field} nests deeper than ${MAX_DEPTH} levels`] };
    try {
      const doc: unknown = JSON.parse(raw);
      if (isObj(doc)) return render(doc);
    } catch {
      return { html: "", skipped: [`its ${field} is not JSON`] };
    }
  }
  return { html: "", skipped: [] };
}
