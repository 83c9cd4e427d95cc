/**
 * Writing XML (and the XML-compatible HTML of AMP and instant articles) by hand, safely: every
 * text and attribute value goes through `escapeXml`, every HTML payload through `cdata`. Both drop
 * the characters XML 1.0 forbids (control characters, lone surrogates, U+FFFE/U+FFFF), which a
 * pasted headline can carry and which make a strict parser reject the whole feed.
 */
import { escapeHtml } from "@/server/security/html";

/** Everything outside XML 1.0's Char production: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const ILLEGAL_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripIllegalXmlChars(text: string): string {
  return text.replace(ILLEGAL_XML_CHARS, "");
}

/** Text or attribute value, escaped for XML and HTML alike. `null`/`undefined` become "". */
export function escapeXml(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  return escapeHtml(stripIllegalXmlChars(String(value)));
}

/**
 * A CDATA section holding `text` verbatim. "]]>" cannot appear inside one, so it is split across
 * two sections ("]]" ends the first, ">" starts the second); a parser joins them back.
 */
export function cdata(text: string): string {
  return `<![CDATA[${stripIllegalXmlChars(text).replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
}

/** An element with escaped text content; attributes with a null/undefined value are left out. */
export function element(
  name: string,
  text: string | number | null | undefined,
  attributes: Record<string, string | number | null | undefined> = {},
): string {
  return `<${name}${attrs(attributes)}>${escapeXml(text)}</${name}>`;
}

/** ` a="1" b="2"`: escaped, in the given order, skipping null/undefined values. */
export function attrs(attributes: Record<string, string | number | boolean | null | undefined>): string {
  let out = "";
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeXml(value)}"`;
  }
  return out;
}

/** RFC 822 date as RSS 2.0 wants it: "Tue, 03 Jun 2025 09:39:21 GMT". */
export function rfc822(date: Date): string {
  return date.toUTCString();
}
