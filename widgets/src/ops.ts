/**
 * Comment bodies in the widgets: the composer's text to the API's ops and back (mentions, links,
 * images; docs/engagement.md "Bodies"), and page ids. Pure functions, unit-tested.
 */
type Obj = Record<string, unknown>;
export type Op = { insert: unknown; attributes?: Obj };
export type Mention = { id: string; name: string; slug: string; avatar: string | null };

const URL_IN_TEXT = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

export function isHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A page id: URL-safe base64 of encodeURIComponent(url) (docs/engagement.md, "Pages and their ids"). */
export function pageId(url: string): string {
  return btoa(encodeURIComponent(url)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * What continues a word or a character: a letter, mark or digit of any script, a joiner, a
 * variation selector, a skin tone or an emoji tag. "@Name" followed by one of these is not a
 * mention of Name ("@Ram" in "@Rama", "@राम" in "@रामा", "@Ana 👩" in "@Ana 👩‍💻").
 */
const CONTINUES = /^[\p{L}\p{M}\p{N}\u200c\u200d\ufe0e\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;

/** Where "@name" first stands in `text` as a whole mention (not the start of a longer name); -1 when nowhere. */
export function mentionAt(text: string, name: string): number {
  const needle = "@" + name;
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + 1)) {
    if (!CONTINUES.test(text.slice(index + needle.length, index + needle.length + 2))) return index;
  }
  return -1;
}

/**
 * What the reader is typing after "@" just before the caret (`before`: the text up to it), for the
 * mention picker: the query (NFC, lower case) and where the "@" stands; null when not in a mention.
 * Any script: letters, marks, digits, joiners and emoji; up to 30 characters, no spaces.
 */
export function mentionQuery(before: string): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,30})$/u.exec(before);
  if (!match) return null;
  return { start: before.length - match[2]!.length - 1, query: match[2]!.normalize("NFC").toLowerCase() };
}

/** The readers whose name holds `query` (mentionQuery's), at most `max`, those whose name starts with it first. */
export function mentionMatches(readers: Mention[], query: string, max = 6): Mention[] {
  const named = readers.map((m) => ({ m, name: m.name.normalize("NFC").toLowerCase() }));
  const found = named.filter((r) => r.name.includes(query));
  const first = found.filter((r) => r.name.startsWith(query));
  return [...first, ...found.filter((r) => !r.name.startsWith(query))].slice(0, max).map((r) => r.m);
}

/**
 * The text of the composer as ops: `@Name` of a chosen reader becomes a mention op, http(s) URLs
 * link ops, the rest text; then the images.
 */
export function textToOps(text: string, mentions: Mention[], images: string[]): Op[] {
  const ops: Op[] = [];
  const pushText = (s: string) => {
    let last = 0;
    for (const match of s.matchAll(URL_IN_TEXT)) {
      if (match.index > last) ops.push({ insert: s.slice(last, match.index) });
      ops.push({ attributes: { link: match[0] }, insert: match[0] });
      last = match.index + match[0].length;
    }
    if (last < s.length) ops.push({ insert: s.slice(last) });
  };
  // Names and text compared composed (NFC): a keyboard or IME may send either form.
  const composed = text.normalize("NFC");
  const names = mentions
    .map((m) => ({ ...m, name: m.name.normalize("NFC") }))
    .filter((m) => m.name && composed.includes("@" + m.name))
    .sort((a, b) => b.name.length - a.name.length);
  let rest = composed.trim() ? composed.replace(/\s+$/, "") : "";
  while (rest) {
    let best: { index: number; m: Mention } | null = null;
    for (const m of names) {
      const index = mentionAt(rest, m.name);
      if (index >= 0 && (!best || index < best.index)) best = { index, m };
    }
    if (!best) {
      pushText(rest);
      break;
    }
    if (best.index) pushText(rest.slice(0, best.index));
    const m = best.m;
    ops.push({
      attributes: {
        mention: {
          name: m.name,
          slug: m.slug,
          avatar: m.avatar && isHttp(m.avatar) ? m.avatar : "",
          id: m.id,
          target: "_blank",
          class: "mention",
        },
        link: m.slug,
      },
      insert: { mentions: true },
    });
    rest = rest.slice(best.index + m.name.length + 1);
  }
  for (const src of images) ops.push({ insert: { image: src } });
  return ops;
}

/** The reverse, for editing: mentions back to `@Name` (kept in `mentions`), images to `images`. */
export function opsToText(ops: Op[], mentions: Mention[], images: string[]): string {
  let text = "";
  for (const op of ops) {
    if (typeof op.insert === "string") text += op.insert;
    else if (op.insert && typeof op.insert === "object") {
      const insert = op.insert as Obj;
      const m = op.attributes && (op.attributes.mention as Obj | undefined);
      if (insert.mentions && m) {
        const mention = {
          id: String(m.id),
          name: String(m.name),
          slug: String(m.slug),
          avatar: typeof m.avatar === "string" ? m.avatar : null,
        };
        mentions.push(mention);
        text += "@" + mention.name;
      } else if (typeof insert.image === "string") images.push(insert.image);
    }
  }
  return text.replace(/\n$/, "");
}

/** The 0-255 channels of a `#rgb`/`#rrggbb` colour, or null for any other colour. */
function channels(color: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1]!.length === 3 ? m[1]!.replace(/./g, "$&$&") : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

const WHITE: [number, number, number] = [255, 255, 255];

/** WCAG relative luminance of 0-255 channels. */
function luminance(rgb: [number, number, number]): number {
  const [r, g, b] = rgb.map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** Whether white text on a `#rgb`/`#rrggbb` colour falls under a 4.5:1 contrast (other colours: false). */
export function whiteIsTooLight(color: string): boolean {
  const rgb = channels(color);
  return rgb !== null && contrast(1, luminance(rgb)) < 4.5;
}

/**
 * `color` as text on `background` (`#rgb`/`#rrggbb`; anything else, such as "transparent", counts
 * as white): itself where it reads at 4.5:1 (WCAG
 * AA), else the nearest shade that does, darker on a light background, lighter on a dark one.
 * Other colours are returned as they are.
 */
export function readableOn(color: string, background: string): string {
  const rgb = channels(color);
  // A background that is not a colour of its own ("transparent", the loader's default, or one
  // given another way) is measured as white, the frame's own: the colour is never left unchecked.
  const bg = channels(background) ?? WHITE;
  if (!rgb) return color;
  const bgLuminance = luminance(bg);
  const toward = bgLuminance > 0.18 ? 0 : 255;
  for (let step = 0; step <= 20; step++) {
    const mixed = rgb.map((c) => Math.round(c + ((toward - c) * step) / 20)) as [number, number, number];
    if (contrast(luminance(mixed), bgLuminance) >= 4.5 || step === 20) {
      return "#" + mixed.map((c) => c.toString(16).padStart(2, "0")).join("");
    }
  }
  return color;
}
