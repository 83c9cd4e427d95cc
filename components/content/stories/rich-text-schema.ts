/**
 * The rich-text editor's document model and the pure helpers around it (no React, no DOM): the
 * TipTap extensions, limited to exactly the HTML the server keeps (server/publishing/editorial/
 * sanitize.ts: p, br, strong, em, a[href], ul, ol, li, h2, h3, blockquote), the link rule, the
 * cleaning of HTML pasted from Word and Google Docs, and the normalising of the editor's output
 * into the form the sanitiser leaves unchanged.
 *
 * Because ProseMirror parses everything (typed, pasted, loaded) into this schema, anything else
 * cannot enter the document; the unit tests prove that what the schema serialises passes the
 * server's sanitiser unchanged (rich-text-schema.test.ts).
 */
import { getMarkRange, type AnyExtension } from "@tiptap/core";
import Link from "@tiptap/extension-link";
import { TextSelection, type EditorState, type Transaction } from "@tiptap/pm/state";
import StarterKit from "@tiptap/starter-kit";

import { checkWebUrl } from "@/server/publishing/cards.schema";

/**
 * Links end where they end: text typed right after a link is not part of it (`inclusive: false`),
 * and the right arrow at the end of a paragraph does what it does elsewhere instead of TipTap's
 * "exit the mark" which writes a space (`exitable: false`).
 */
const BoundedLink = Link.extend({ inclusive: () => false, exitable: false });

/** The TipTap extensions of the editor: StarterKit without everything the allow-list lacks. */
export function richTextExtensions(): AnyExtension[] {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3] },
      code: false,
      codeBlock: false,
      strike: false,
      underline: false,
      horizontalRule: false,
      link: false,
    }),
    BoundedLink.configure({
      openOnClick: false,
      autolink: true,
      linkOnPaste: true,
      defaultProtocol: "https",
      // No custom schemes: http, https and mailto are linkify's own, and registering a scheme once
      // linkify has started (the second editor on a page) warns in the console.
      protocols: [],
      // href only: no target, rel or class in the output (the sanitiser would drop them).
      HTMLAttributes: { target: null, rel: null, class: null },
      isAllowedUri: (url) => isAllowedLinkHref(url),
      shouldAutoLink: (url) => isAllowedLinkHref(url),
    }),
  ];
}

/** A link the server keeps: an absolute http(s) URL or a mailto: address (server/web-url.ts). */
export function isAllowedLinkHref(href: string): boolean {
  return checkWebUrl(href, { mailto: true }).ok;
}

/**
 * What the link dialog stores for what the editor typed: "example.org/x" becomes
 * "https://example.org/x", an address with "@" and no scheme becomes mailto:; null when the
 * result is not a link the server keeps (javascript:, relative paths, spaces…).
 */
export function linkHrefFromInput(input: string): string | null {
  const value = input.trim();
  if (!value) return null;
  let candidate = value;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    if (/^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/.test(value)) candidate = `mailto:${value}`;
    else if (/^[^\s/]+\.[^\s/]+/.test(value)) candidate = `https://${value}`;
    else return null;
  }
  const result = checkWebUrl(candidate, { mailto: true });
  return result.ok ? result.href : null;
}

/**
 * What Apply in the link dialog does, as one transaction: the selection (or, with none, the link
 * around the caret) links to `href`; with no selection and no link, `text` is inserted as the
 * link. Afterwards the caret sits right after the link with nothing selected, so typing goes on
 * in plain text.
 */
export function applyLinkTransaction(state: EditorState, href: string, text: string): Transaction {
  const type = state.schema.marks.link!;
  const mark = type.create({ href });
  const { selection } = state;
  const tr = state.tr;
  let from = selection.from;
  let to = selection.to;
  if (selection.empty) {
    // Inside a link (as the dialog shows it: at its end, typing is no longer part of it).
    const around = type.isInSet(selection.$from.marks()) ? getMarkRange(selection.$from, type) : undefined;
    if (around) {
      ({ from, to } = around);
    } else {
      tr.insertText(text, from);
      to = from + text.length;
    }
  }
  tr.removeMark(from, to, type).addMark(from, to, mark);
  tr.setSelection(TextSelection.create(tr.doc, to)).setStoredMarks(
    (tr.storedMarks ?? tr.doc.resolve(to).marks()).filter((m) => m.type !== type),
  );
  return tr;
}

// ─── The "/" insert menu ─────────────────────────────────────────────────────────────────────

/** What the "/" menu inserts: the blocks the toolbar makes, by name. */
export const SLASH_ITEMS = [
  { id: "h2", label: "Heading", hint: "A section heading (h2)" },
  { id: "h3", label: "Subheading", hint: "A smaller heading (h3)" },
  { id: "bullets", label: "Bulleted list", hint: "A list with bullets" },
  { id: "numbers", label: "Numbered list", hint: "A list with numbers" },
  { id: "quote", label: "Quote", hint: "A quotation, set off" },
] as const;
export type SlashItem = (typeof SLASH_ITEMS)[number]["id"];

/**
 * Whether "/" opens the insert menu here: the caret (nothing selected) in an empty paragraph of
 * the text itself, not inside a list or quote. Anywhere else "/" is a slash.
 */
export function slashMenuOpens(state: EditorState): boolean {
  const { selection } = state;
  if (!selection.empty) return false;
  const { $from } = selection;
  return $from.depth === 1 && $from.parent.type.name === "paragraph" && $from.parent.content.size === 0;
}

/**
 * The editor's HTML in the form the server stores it: empty paragraphs at the end go (the one the
 * editor keeps after a list or quote so the caret can leave it; an empty document is ""), and
 * non-breaking spaces are characters and line breaks `<br />`, as the sanitiser (sanitize-html)
 * writes them: it decodes entities and re-encodes only &, < and >.
 */
export function normaliseEditorHtml(html: string): string {
  return html
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/<br>/g, "<br />")
    .replace(/(?:<p>(?:\s|<br \/>)*<\/p>)+$/, "")
    .trim();
}

// ─── Paste from Word and Google Docs ─────────────────────────────────────────────────────────

const TAG = /<(\/?)([a-zA-Z][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

function attr(attrs: string, name: string): string | null {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return match ? (match[1] ?? match[2] ?? match[3] ?? "") : null;
}

function styleOf(attrs: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (attr(attrs, "style") ?? "").split(";")) {
    const i = part.indexOf(":");
    if (i > 0)
      out.set(
        part.slice(0, i).trim().toLowerCase(),
        part
          .slice(i + 1)
          .trim()
          .toLowerCase(),
      );
  }
  return out;
}

function isBoldWeight(weight: string | undefined): boolean {
  if (!weight) return false;
  if (weight === "bold" || weight === "bolder") return true;
  const n = Number(weight);
  return Number.isFinite(n) && n >= 600;
}

/** Word's list paragraphs (`mso-list`) become real lists: "1." markers an ordered one, bullets an unordered one. */
function wordLists(html: string): string {
  const item = /<p\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/p>/gi;
  const marker = /<!\[if !supportLists\]>([\s\S]*?)<!\[endif\]>/i;
  let out = "";
  let last = 0;
  let open: "ul" | "ol" | null = null;
  for (const match of html.matchAll(item)) {
    if (!/mso-list/i.test(match[1]!)) continue;
    const between = html.slice(last, match.index);
    if (open && between.trim()) {
      out += `</${open}>`;
      open = null;
    }
    out += between;
    const body = match[2]!;
    const markerText = (marker.exec(body)?.[1] ?? "").replace(/<[^>]*>/g, "").replace(/&nbsp;|\s/g, "");
    const kind = /^(?:\d+|[a-z]|[ivxlc]+)[.)]$/i.test(markerText) ? "ol" : "ul";
    if (open !== kind) {
      if (open) out += `</${open}>`;
      out += `<${kind}>`;
      open = kind;
    }
    out += `<li>${body.replace(marker, "")}</li>`;
    last = match.index + match[0].length;
  }
  if (open) out += `</${open}>`;
  return out + html.slice(last);
}

/**
 * HTML from the clipboard made plain before ProseMirror parses it into the schema: Word's
 * conditional comments, `<o:p>`, style and XML blocks go and its list paragraphs become lists;
 * Google Docs' `<b style="font-weight:normal" id="docs-internal-guid-…">` wrapper goes (it is not
 * bold); spans styled bold or italic become <strong> and <em>, other spans go (their text stays);
 * h1 becomes h2 and h4–h6 h3. What is left the schema parses, dropping anything it does not know.
 */
export function cleanPastedHtml(html: string): string {
  let out = html
    .replace(/<!--\[if[\s\S]*?<!\[endif\]-->/gi, "")
    .replace(/<(style|xml|script|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "");
  out = wordLists(out).replace(/<!\[if[\s\S]*?<!\[endif\]>/gi, "");

  // Tag by tag, with a stack so each dropped or renamed opening tag takes its own closing tag with it.
  const stack: { name: string; close: string }[] = [];
  out = out.replace(TAG, (_, slash: string, rawName: string, attrs: string) => {
    const name = rawName.toLowerCase();
    if (name.includes(":")) return ""; // o:p, w:…, v:… (Office namespaces)
    if (name === "meta" || name === "link") return "";
    if (name === "h1" || /^h[4-6]$/.test(name)) return `<${slash}${name === "h1" ? "h2" : "h3"}>`;
    if (name !== "b" && name !== "span" && name !== "font") return `<${slash}${name}${attrs}>`;
    if (slash) {
      // The innermost open one of this name.
      for (let i = stack.length - 1; i >= 0; i--) {
        if (stack[i]!.name === name) return stack.splice(i, 1)[0]!.close;
      }
      return "";
    }
    if (/\/\s*$/.test(attrs)) return "";
    const style = styleOf(attrs);
    const weight = style.get("font-weight");
    let bold = name === "b" ? !(weight === "normal" || weight === "400") : isBoldWeight(weight);
    if (name === "b" && (attr(attrs, "id") ?? "").startsWith("docs-internal-guid")) bold = false;
    const italic = style.get("font-style") === "italic";
    const open = `${bold ? "<strong>" : ""}${italic ? "<em>" : ""}`;
    const close = `${italic ? "</em>" : ""}${bold ? "</strong>" : ""}`;
    stack.push({ name, close });
    return open;
  });
  return out.trim();
}
