/**
 * What a PDF holds, read as a PDF reader reads it, for tests of documents in every script: the
 * embedded fonts' names (a subset's "ABCDEF+NotoSansTamil-Regular"), the characters their
 * ToUnicode maps give the drawn glyphs (what copying or extracting text yields), and each marked
 * line's /ActualText (the words in reading order). Streams are inflated (FlateDecode), strings
 * decoded from PDF escapes and UTF-16BE. Test support: imported by tests only.
 */
import zlib from "node:zlib";

import type { Locale } from "@/i18n/locales";
import { translator } from "@/i18n/translate";

import { readerMailKit } from "../i18n/reader-mail";

/** The document language of `locale` with the account's zone (no overrides). */
export const documentLanguage = (locale: Locale, zone: string) =>
  readerMailKit(locale, translator("mail", locale), zone);

/** Every stream's bytes, inflated when compressed. */
function streams(pdf: Buffer): Buffer[] {
  const text = pdf.toString("latin1");
  const out: Buffer[] = [];
  const re = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf("endstream", start);
    const raw = pdf.subarray(start, end);
    out.push(/\/FlateDecode/.test(m[1]!) ? zlib.inflateSync(raw) : raw);
  }
  return out;
}

const utf16be = (bytes: Buffer) => {
  const swapped = Buffer.from(bytes);
  swapped.swap16();
  return swapped.toString("utf16le").replace(/^\uFEFF/, "");
};

/** A PDF text string: UTF-16BE after its byte order mark, else one byte a character. */
const textString = (bytes: Buffer) =>
  bytes[0] === 0xfe && bytes[1] === 0xff ? utf16be(bytes) : bytes.toString("latin1");

/** A PDF literal string's bytes ("(…)" with its escapes), from just after its "(". */
function literalString(text: string, from: number): Buffer {
  const bytes: number[] = [];
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[++i]!;
      const escaped: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12 };
      if (/[0-7]/.test(next)) {
        const oct = /^[0-7]{1,3}/.exec(text.slice(i))![0];
        bytes.push(parseInt(oct, 8));
        i += oct.length - 1;
      } else bytes.push(escaped[next] ?? next.charCodeAt(0));
      continue;
    }
    if (c === "(") depth++;
    if (c === ")" && depth-- === 0) break;
    bytes.push(c.charCodeAt(0));
  }
  return Buffer.from(bytes);
}

type PdfFacts = { fonts: string[]; characters: Set<string>; actualText: string[] };

export function pdfFacts(pdf: Buffer): PdfFacts {
  const text = pdf.toString("latin1");
  const fonts = [...text.matchAll(/\/BaseFont \/([A-Za-z0-9+_-]+)/g)].map((m) => m[1]!);
  const characters = new Set<string>();
  const actualText: string[] = [];
  for (const stream of streams(pdf)) {
    const body = stream.toString("latin1");
    if (body.includes("begincmap")) {
      // pdfkit writes "<first> <last> [<code units of glyph first> <…>]": the characters are in the arrays.
      for (const array of body.matchAll(/\[([^\]]*)\]/g))
        for (const hex of array[1]!.matchAll(/<([0-9a-fA-F ]+)>/g))
          for (const ch of utf16be(Buffer.from(hex[1]!.replace(/ /g, ""), "hex"))) characters.add(ch);
      continue;
    }
    for (const m of body.matchAll(/\/ActualText \(/g))
      actualText.push(textString(literalString(body, m.index + m[0].length)));
  }
  return { fonts, characters, actualText };
}
