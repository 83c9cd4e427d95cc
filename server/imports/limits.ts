/**
 * Bounds every import reader keeps, and the one way a message names the file.
 *
 * - **Depth**: a JSON document (a Ghost export, the Lexical or Mobiledoc inside a post, a line of a
 *   JSON-lines file, a plan mapping) or an XML file nested deeper than MAX_DEPTH is refused whole,
 *   with the limit and where it was hit; nothing of it is imported.
 * - **Expanded size**: a compressed file is unpacked through a byte counter that stops at
 *   MAX_EXPANDED_BYTES (a "zip bomb" is refused, not read for minutes).
 * - **File names**: messages name a file by its own name (`displayName`), never by a path on the
 *   server; `withFileName` puts the uploaded file's name in place of the stored file's path.
 */
import nodePath from "node:path";
import { Transform, type TransformCallback } from "node:stream";

import { ImportFileError, type ImportFile } from "./types";

/** A file refused for passing one of these bounds (not for its format). */
export class ImportLimitError extends ImportFileError {}

/** The deepest nesting of objects/arrays (JSON) or elements (XML) read. */
export const MAX_DEPTH = 256;

/** The most bytes a compressed file may expand to. */
export const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;

/** A file's name as messages show it: its last path segment, never the server's folders. */
export function displayName(path: string): string {
  return nodePath.basename(path);
}

/**
 * `message` with the stored file's path (and its last segment) replaced by the file's own name.
 * A source read from an address (another content API) has no server path to hide: its message
 * is left whole (its last segment may be an ordinary word such as "site").
 */
export function withFileName(message: string, file: ImportFile): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file.path)) return message;
  let out = message.split(file.path).join(file.name);
  const base = displayName(file.path);
  if (base && base !== file.name) out = out.split(base).join(file.name);
  return out;
}

/**
 * Where JSON `text` nests deeper than MAX_DEPTH (a loop over the text: JSON.parse of a deeper
 * document would exhaust the call stack, and so would any recursive walk of it), or null.
 */
export function jsonTooDeep(text: string): { line: number; column: number } | null {
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return { line, column: i - lineStart + 1 };
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}

/**
 * Where JSON.parse stopped in `text` ("line 3, column 7"), from its message's position; at the end
 * of the text when it says the text ended; null when it names no place.
 */
export function jsonErrorWhere(text: string, error: unknown): string | null {
  const message = error instanceof Error ? error.message : "";
  const at = /at position (\d+)/.exec(message);
  const position = at ? Number(at[1]) : /end of (JSON )?input/i.test(message) ? text.length : null;
  if (position === null) return null;
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  return `line ${line}, column ${position - before.lastIndexOf("\n")}`;
}

/** The message for a document nested deeper than MAX_DEPTH at `where`. */
export function tooDeepMessage(name: string, where: string): string {
  return `${name} nests deeper than ${MAX_DEPTH} levels (at ${where}): it is refused whole, nothing of it is imported.`;
}

/** JSON.parse, refusing (ImportFileError) a document nested deeper than MAX_DEPTH. */
export function parseBoundedJson(text: string, name: string): unknown {
  const deep = jsonTooDeep(text);
  if (deep) throw new ImportLimitError(tooDeepMessage(name, `line ${deep.line}, column ${deep.column}`));
  return JSON.parse(text) as unknown;
}

/** The message for a compressed file expanding past MAX_EXPANDED_BYTES. */
function tooLargeExpandedMessage(name: string): string {
  return `${name} expands to more than ${MAX_EXPANDED_BYTES / 1048576} MB when unpacked: it is refused (unpack it and check what is inside).`;
}

/** A stream counting the bytes unpacked, failing with ImportLimitError past MAX_EXPANDED_BYTES. */
export function expandedSizeCap(name: string, limit = MAX_EXPANDED_BYTES): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      total += chunk.length;
      if (total > limit) return done(new ImportLimitError(tooLargeExpandedMessage(name)));
      done(null, chunk);
    },
  });
}
