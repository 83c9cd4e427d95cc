/**
 * Documents attached to stories (a story's file element): the accepted types, the key form, the
 * upload endpoint's answer, and what a file is judged to be from its bytes. Pure (the editor
 * imports the types and limits; server/publishing/editorial/files.ts stores and serves).
 *
 * What a file is comes from its content, never from the name or type the browser declared:
 * - PDF: starts with "%PDF-";
 * - Word, Excel, PowerPoint (Office Open XML): a ZIP whose entries include "[Content_Types].xml"
 *   and the "word/", "xl/" or "ppt/" folder (read from the ZIP's central directory, or its local
 *   headers when the directory cannot be found); any other ZIP is refused;
 * - plain text and CSV: valid UTF-8 without NUL bytes that does not look like markup (HTML, SVG,
 *   XML: a browser that guessed would render it); the uploaded name's extension decides CSV
 *   (".csv") or text (anything else).
 */
import { z } from "zod";

/** Accepted types → the extension their keys end with. */
export const FILE_TYPES = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "text/plain": "txt",
  "text/csv": "csv",
} as const;
export type TFileMimeType = keyof typeof FILE_TYPES;
type TFileExtension = (typeof FILE_TYPES)[TFileMimeType];

/** What the upload button and the 415 answer say is accepted. */
export const ACCEPTED_FILES_LABEL = "PDF, Word (.docx), Excel (.xlsx), PowerPoint (.pptx), plain text or CSV";

/** The file picker's filter (a convenience only: the server judges the bytes). */
export const FILE_ACCEPT = [".pdf", ".docx", ".xlsx", ".pptx", ".txt", ".csv", ...Object.keys(FILE_TYPES)].join(",");

/**
 * "<accountId>/files/<yyyy>/<mm>/<uuid>.<ext>": the "files" segment keeps them apart from image
 * keys ("<accountId>/<yyyy>/…", IMAGE_KEY_PATTERN), so neither route nor the media library takes
 * one for the other.
 */
export const FILE_KEY_PATTERN =
  /^[1-9][0-9]{0,9}\/files\/[0-9]{4}\/[0-9]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:pdf|docx|xlsx|pptx|txt|csv)$/;
export const ZFileKey = z.string().regex(FILE_KEY_PATTERN, "must be the key of an uploaded file");

/** POST /api/admin/files's answer. */
export const ZUploadedFile = z.object({
  key: z.string(),
  url: z.string(),
  "file-name": z.string(),
  "content-type": z.enum(Object.keys(FILE_TYPES) as [TFileMimeType, ...TFileMimeType[]]),
  bytes: z.number().int(),
});
export type TUploadedFile = z.infer<typeof ZUploadedFile>;

// ─── Sniffing ────────────────────────────────────────────────────────────────────────────────

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const u16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;

const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const CENTRAL_HEADER = [0x50, 0x4b, 0x01, 0x02];
const END_OF_DIRECTORY = [0x50, 0x4b, 0x05, 0x06];
/** Enough entries for any real document; a directory claiming more is not read further. */
const MAX_ZIP_ENTRIES = 10_000;

const latin1 = new TextDecoder("latin1");

/** The names in a ZIP's central directory, or null when it has none that can be read. */
function centralDirectoryNames(bytes: Uint8Array): string[] | null {
  // The end-of-directory record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (!startsWith(bytes, END_OF_DIRECTORY, at)) continue;
    const count = u16(bytes, at + 10);
    let offset = u32(bytes, at + 16);
    const names: string[] = [];
    for (let i = 0; i < Math.min(count, MAX_ZIP_ENTRIES); i++) {
      if (!startsWith(bytes, CENTRAL_HEADER, offset) || offset + 46 > bytes.length) return names.length ? names : null;
      const nameLength = u16(bytes, offset + 28);
      const end = offset + 46 + nameLength;
      if (end > bytes.length) break;
      names.push(latin1.decode(bytes.subarray(offset + 46, end)));
      offset = end + u16(bytes, offset + 30) + u16(bytes, offset + 32);
    }
    return names.length ? names : null;
  }
  return null;
}

/** The names in a ZIP's local headers, walked from the start (as far as sizes are known). */
function localHeaderNames(bytes: Uint8Array): string[] {
  const names: string[] = [];
  let offset = 0;
  while (names.length < MAX_ZIP_ENTRIES && startsWith(bytes, LOCAL_HEADER, offset) && offset + 30 <= bytes.length) {
    const flags = u16(bytes, offset + 6);
    const compressed = u32(bytes, offset + 18);
    const nameLength = u16(bytes, offset + 26);
    const extraLength = u16(bytes, offset + 28);
    const nameEnd = offset + 30 + nameLength;
    if (nameEnd > bytes.length) break;
    names.push(latin1.decode(bytes.subarray(offset + 30, nameEnd)));
    // With a data descriptor (flag bit 3) the size is only known after the data: stop here.
    if (flags & 0x08) break;
    offset = nameEnd + extraLength + compressed;
  }
  return names;
}

/** The entry names of a ZIP archive (central directory first, else local headers); [] when it is none. */
export function zipEntryNames(bytes: Uint8Array): string[] {
  if (!startsWith(bytes, LOCAL_HEADER)) return [];
  return centralDirectoryNames(bytes) ?? localHeaderNames(bytes);
}

function officeType(bytes: Uint8Array): TFileMimeType | null {
  const names = zipEntryNames(bytes);
  if (!names.includes("[Content_Types].xml")) return null;
  const has = (folder: string) => names.some((name) => name.startsWith(folder));
  if (has("word/")) return "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  if (has("xl/")) return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  if (has("ppt/")) return "application/vnd.openxmlformats-officedocument.presentationml.presentation";
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Markup a browser would render if it ever guessed: a document opening with "<" (HTML, SVG,
 * XML), or an HTML or SVG element able to run script near the start (where browsers sniff).
 */
const MARKUP_START = /^\s*</;
const SCRIPTABLE_TAG = /<(?:!doctype|html|head|body|script|iframe|svg|object|embed|style|meta|link|img|a\s)/i;
const SNIFF_WINDOW = 1024;

function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return false;
  }
  if (MARKUP_START.test(text)) return false;
  return !SCRIPTABLE_TAG.test(text.slice(0, SNIFF_WINDOW));
}

/**
 * What an upload is, from its bytes (see the header), or null when it is none of the accepted
 * types. `fileName` (as the browser sent it) only tells CSV from plain text.
 */
export function sniffFileType(bytes: Uint8Array, fileName: string): TFileMimeType | null {
  if (bytes.length === 0) return null;
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf";
  if (startsWith(bytes, LOCAL_HEADER)) return officeType(bytes);
  if (isPlainText(bytes)) return /\.csv$/i.test(fileName.trim()) ? "text/csv" : "text/plain";
  return null;
}

// ─── Downloading ─────────────────────────────────────────────────────────────────────────────

/**
 * The name a download is saved under: the uploaded name, with the sniffed type's extension added
 * when the name does not end with it ("report.exe" that is text is saved as "report.exe.txt"),
 * so the reader's system opens it as what it is.
 */
export function downloadName(fileName: string, extension: TFileExtension): string {
  const name = fileName.trim() || "file";
  return name.toLowerCase().endsWith(`.${extension}`) ? name : `${name}.${extension}`;
}

/**
 * Content-Disposition for a download: `attachment`, an ASCII `filename` for old clients and the
 * exact name as RFC 5987 `filename*` (UTF-8, percent-encoded).
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
