/**
 * A mail part in quoted-printable (RFC 2045 6.7), the same bytes nodemailer writes for it, made
 * in one pass over the text. nodemailer's encoder adds one character at a time to a string after
 * checking it against a list of ranges, and a newsletter send encodes every reader's copy: that was
 * the largest cost of handing a mail over. Lines are wrapped by nodemailer's own `wrap`, so where
 * a soft line break falls does not change.
 */
import type Mail from "nodemailer/lib/mailer";
import { wrap } from "nodemailer/lib/qp";

const HEX = Array.from({ length: 256 }, (_, byte) => `=${byte.toString(16).toUpperCase().padStart(2, "0")}`);
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const EQUALS = 0x3d;

/** Kept as it is: tab, line breaks, and printable ASCII but "=". */
const kept = (c: number) => c === TAB || c === LF || c === CR || (c >= SPACE && c <= 0x7e && c !== EQUALS);

/** The UTF-8 bytes of the code point at `i` (a lone surrogate is U+FFFD, as Buffer.from writes it), escaped. */
function escapedCodePoint(text: string, i: number): { escaped: string; units: number } {
  const c = text.charCodeAt(i);
  if (c < 0x80) return { escaped: HEX[c]!, units: 1 };
  if (c < 0x800) return { escaped: HEX[0xc0 | (c >> 6)]! + HEX[0x80 | (c & 0x3f)]!, units: 1 };
  let point = c;
  let units = 1;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      point = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      units = 2;
    } else point = 0xfffd;
  } else if (c >= 0xdc00 && c <= 0xdfff) point = 0xfffd;
  if (point < 0x10000)
    return {
      escaped: HEX[0xe0 | (point >> 12)]! + HEX[0x80 | ((point >> 6) & 0x3f)]! + HEX[0x80 | (point & 0x3f)]!,
      units,
    };
  return {
    escaped:
      HEX[0xf0 | (point >> 18)]! +
      HEX[0x80 | ((point >> 12) & 0x3f)]! +
      HEX[0x80 | ((point >> 6) & 0x3f)]! +
      HEX[0x80 | (point & 0x3f)]!,
    units,
  };
}

/** `text` as UTF-8 in quoted-printable, before line wrapping: nodemailer's `qp.encode`, character for character. */
export function encodeQuotedPrintable(text: string): string {
  let out = "";
  let run = 0;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (kept(c)) {
      // A space or tab at the end of a line (or of the text) is escaped: transports may drop it.
      if (c === SPACE || c === TAB) {
        const next = text.charCodeAt(i + 1);
        if (i === text.length - 1 || next === LF || next === CR) {
          out += text.slice(run, i) + HEX[c]!;
          run = ++i;
          continue;
        }
      }
      i++;
      continue;
    }
    const { escaped, units } = escapedCodePoint(text, i);
    out += text.slice(run, i) + escaped;
    i += units;
    run = i;
  }
  return out + text.slice(run);
}

/** nodemailer's test for text it sends as it is: no control character but tab and line breaks, nothing past ASCII… */
const NOT_PLAIN = /[\x00-\x08\x0b\x0c\x0e-\x1f\u0080-\uFFFF]/;
/** …and no line over 76 characters (a text over 128 kB it does not look into, and encodes). */
const LONG_LINE = /^.{77,}/m;
const sentAsItIs = (text: string) => !NOT_PLAIN.test(text) && text.length <= 128 * 1024 && !LONG_LINE.test(text);

/**
 * A text part for nodemailer when the mail's parts are in quoted-printable: as nodemailer writes
 * a `text` or `html` given as a string, but encoded here (its `raw`: headers and body). Text of
 * plain ASCII in short lines nodemailer sends as it is (7bit), and so it is still given to it.
 */
function quotedPrintablePart(
  contentType: "text/plain" | "text/html",
  text: string,
): string | (Mail.AttachmentLike & { raw: string }) {
  // nodemailer takes `raw` on a part (its headers and body as given); its types leave it out.
  if (sentAsItIs(text)) return text;
  return {
    raw:
      `Content-Type: ${contentType}; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n` +
      wrap(encodeQuotedPrintable(text), 76),
  };
}

type Part = ReturnType<typeof quotedPrintablePart>;

/**
 * A mail's text and HTML for nodemailer. A `raw` part stands for its whole node, headers included,
 * and a mail of one part is one node, the message itself: so only the two parts of a mail with
 * both (multipart/alternative) are encoded here; a mail of one part is nodemailer's to encode.
 */
export function mailParts(
  text: string,
  html: string | undefined,
  textEncoding: "quoted-printable" | "base64",
): { text: Part; html?: Part } {
  if (textEncoding !== "quoted-printable" || !text || !html) return html ? { text, html } : { text };
  return { text: quotedPrintablePart("text/plain", text), html: quotedPrintablePart("text/html", html) };
}
