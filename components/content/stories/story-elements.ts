/**
 * The story elements the card editor makes, in the wire shape the read API serves
 * (server/publishing/cards.schema.ts; docs/publishing.md, "Story elements"), and the small pure
 * helpers the editor needs: new elements and cards, moving items, plain text in HTML fields,
 * embed code in base64, an image's focus point from a click. No React: unit-tested.
 */
import { ownValue } from "@/server/own-keys";
import type { TCard, TStoryElement } from "@/server/publishing/cards.schema";

/** A v4 UUID, also where crypto.randomUUID is missing (pages served over plain http). */
export function uuid(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** What an editor can add, and what each is called in the editor. */
export const ELEMENT_KINDS = [
  ["text", "Text"],
  ["title", "Title"],
  ["summary", "Summary"],
  ["quote", "Quote"],
  ["blockquote", "Blockquote"],
  ["bigfact", "Big fact"],
  ["image", "Image"],
  ["gallery", "Gallery"],
  ["youtube", "YouTube"],
  ["tweet", "Tweet"],
  ["embed", "Embed"],
  ["file", "File"],
] as const;
export type ElementKind = (typeof ELEMENT_KINDS)[number][0];

/** jsembed subtypes the "Embed" element offers (the tweet has its own element). */
export const EMBED_SUBTYPES = [
  ["instagram", "Instagram"],
  ["facebook-post", "Facebook post"],
  ["location", "Map / location"],
] as const;

export function newElement(kind: ElementKind): TStoryElement {
  const base = { id: uuid(), subtype: null, metadata: {} };
  switch (kind) {
    case "text":
    case "title":
    case "summary":
      return { ...base, type: kind, text: "" };
    case "quote":
      return { ...base, type: "quote", text: "", metadata: { attribution: "" } };
    case "blockquote":
    case "bigfact":
      return { ...base, type: kind, text: "", metadata: { content: "", attribution: "" } };
    case "image":
      return newImage();
    case "gallery":
      return { ...base, type: "composite", subtype: "image-gallery", "story-elements": [] };
    case "youtube":
      return { ...base, type: "youtube-video", url: undefined };
    case "tweet":
      return { ...base, type: "jsembed", subtype: "tweet", url: undefined };
    case "embed":
      return { ...base, type: "jsembed", subtype: "instagram", url: undefined };
    case "file":
      return { ...base, type: "file", subtype: "attachment", "file-url": undefined, "file-name": "" };
  }
}

/** An image element (alone, or inside a gallery). */
export function newImage(fields: Partial<TStoryElement> = {}): TStoryElement {
  return {
    id: uuid(),
    type: "image",
    subtype: null,
    "image-s3-key": "",
    title: "",
    "image-attribution": "",
    metadata: {},
    ...fields,
  };
}

export function newCard(kind: ElementKind = "text"): TCard {
  return { id: uuid(), status: "draft", version: 1, metadata: {}, "story-elements": [newElement(kind)] };
}

/** The editor's name for an element. */
export function kindOf(element: TStoryElement): string {
  switch (element.type) {
    case "text":
      return "Text";
    case "title":
      return "Title";
    case "summary":
      return "Summary";
    case "quote":
      return "Quote";
    case "blockquote":
      return "Blockquote";
    case "bigfact":
      return "Big fact";
    case "image":
      return "Image";
    case "youtube-video":
      return "YouTube video";
    case "file":
      return "File";
    case "composite":
      if (element.subtype === "image-gallery") return "Gallery";
      break;
    case "jsembed": {
      if (element.subtype === "tweet") return "Tweet";
      const known = EMBED_SUBTYPES.find(([value]) => value === element.subtype);
      if (known) return `Embed (${known[1]})`;
      break;
    }
  }
  return element.subtype ? `${element.type} (${element.subtype})` : element.type;
}

/** `items` with the one at `from` moved to `to` (unchanged order when `to` is out of range). */
export function move<T>(items: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length || from < 0 || from >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item!);
  return copy;
}

// ─── Plain text in HTML fields ───────────────────────────────────────────────────────────────

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * Captions, attributions, titles and quotes are HTML fields stored sanitised ("a &amp; b"); the
 * editor shows them as the text they render to, and stores what is typed with &, < and > encoded,
 * which the sanitiser keeps as it is.
 */
export function htmlToPlain(html: string | undefined | null): string {
  return (html ?? "").replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ownValue(ENTITIES, name) ?? "");
}

export function plainToHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// ─── Embeds ──────────────────────────────────────────────────────────────────────────────────

/** Embed code as the `embed-js` field holds it: base64 of its UTF-8. */
export function encodeEmbed(code: string): string {
  const bytes = new TextEncoder().encode(code);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeEmbed(base64: string | undefined): string {
  if (!base64) return "";
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return "";
  }
}

// ─── Focus point ─────────────────────────────────────────────────────────────────────────────

/**
 * The focus point `[x, y]` in the image's own pixels (as `image-metadata.focus-point` and the
 * hero image's hold it) for a click at (`clickX`, `clickY`) on a preview drawn `shown` big, of an
 * image `natural` big; clamped inside the image.
 */
export function focusPointFromClick(
  click: { x: number; y: number },
  shown: { width: number; height: number },
  natural: { width: number; height: number },
): [number, number] {
  const clamp = (v: number, max: number) => Math.min(Math.max(Math.round(v), 0), max);
  if (shown.width <= 0 || shown.height <= 0) return [0, 0];
  return [
    clamp((click.x / shown.width) * natural.width, natural.width),
    clamp((click.y / shown.height) * natural.height, natural.height),
  ];
}
