/**
 * Files of JSON values one per line (Remark42's backups, Coral's collections as `mongoexport` or
 * Coral's own downloader write them), streamed: 64 KB read at a time, a line held only while it
 * is parsed, so memory grows with the longest line, never with the file. A gzip file (Remark42
 * writes its backups gzipped) is unpacked on the way; `onBytes` sees the bytes as stored, so a
 * file's digest is the digest of what the operator gave.
 *
 * Each line is UTF-8 (a byte-order mark at the start is dropped, a CR before the newline too);
 * blank lines and a final newline are fine. Each other line is one JSON object. A line that is not
 * JSON, is JSON but not an object, does not decode, is longer than MAX_LINE, or is cut off by the
 * end of the file (or of its gzip data) refuses the whole file with its line number
 * (ImportFileError): a file broken there is not the export it says it is, and its lines past the
 * break may be anything. A record that is an object but misses what an item needs is the
 * reader's to refuse alone.
 */
import fs from "node:fs";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";

import { displayName, expandedSizeCap, ImportLimitError, jsonTooDeep, tooDeepMessage } from "../limits";
import { ImportFileError } from "../types";

/** The longest line read (a Remark42 meta line lists every user: a few MB for a large site). */
const MAX_LINE = 64 * 1024 * 1024;

export type JsonLine = { line: number; value: Record<string, unknown> };

function cannotRead(path: string, error: unknown): ImportFileError {
  const code = (error as { code?: string }).code;
  const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (code ?? "unreadable");
  return new ImportFileError(`Cannot read ${displayName(path)}: ${why}.`);
}

/** Whether `path` starts as a gzip file does; ImportFileError when it cannot be read. */
async function isGzip(path: string): Promise<boolean> {
  const stat = await fs.promises.stat(path).catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  if (stat.isDirectory()) throw new ImportFileError(`Cannot read ${displayName(path)}: it is a directory.`);
  const handle = await fs.promises.open(path, "r").catch((error: unknown) => {
    throw cannotRead(path, error);
  });
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The refusal of the whole file for its line `line`. */
function brokenLine(path: string, line: number, why: string): ImportFileError {
  return new ImportFileError(`${displayName(path)}: line ${line}: ${why}. Nothing of it is imported.`);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

function parseLine(bytes: Buffer, line: number, last: boolean, path: string): JsonLine | null {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw brokenLine(path, line, "it holds bytes that are not UTF-8 (export the file as UTF-8)");
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.trim() === "") return null;
  // A line nested too deep refuses the whole file (see limits.ts).
  const deep = jsonTooDeep(text);
  if (deep) throw new ImportLimitError(tooDeepMessage(displayName(path), `line ${line}, column ${deep.column}`));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw brokenLine(
      path,
      line,
      last ? `the file ends inside this line: it was cut off (${why})` : `it is not JSON (${why})`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw brokenLine(path, line, `it is ${kindOf(value)}, not a JSON object`);
  }
  return { line, value: value as Record<string, unknown> };
}

/** A line past MAX_LINE: a limit (limits.ts), refusing the file whole like the others. */
function tooLongLine(path: string, line: number): ImportLimitError {
  return new ImportLimitError(
    `${displayName(path)}: line ${line}: it is longer than ${MAX_LINE / 1024 / 1024} MB, the longest line read. Nothing of it is imported.`,
  );
}

/** The lines of `path` (see the file's comment). ImportFileError when it cannot be opened or a line is broken. */
export async function* readJsonLines(path: string, onBytes: (bytes: Buffer) => void): AsyncGenerator<JsonLine> {
  const gzip = await isGzip(path);
  const raw = fs.createReadStream(path, { highWaterMark: 64 * 1024 });
  raw.on("data", (chunk) => onBytes(chunk as Buffer));
  // pipeline: an error of the file or of the unpacking ends the iteration below with it.
  const input: AsyncIterable<Buffer> = gzip
    ? pipeline(raw, createGunzip(), expandedSizeCap(displayName(path)), () => undefined)
    : raw;
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let tooLong = false;
  let line = 1;
  try {
    for await (const chunk of input) {
      let start = 0;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, at);
        start = at + 1;
        if (tooLong || pendingLength + piece.length > MAX_LINE) throw tooLongLine(path, line);
        const parsed = parseLine(pendingLength ? Buffer.concat([...pending, piece]) : piece, line, false, path);
        if (parsed) yield parsed;
        pending = [];
        pendingLength = 0;
        line++;
      }
      const rest = chunk.subarray(start);
      if (rest.length === 0 || tooLong) continue;
      // Read on to the line's end (or the file's): a gzip bomb is refused by its expanded size.
      if (pendingLength + rest.length > MAX_LINE) {
        tooLong = true;
        pending = [];
        pendingLength = 0;
        continue;
      }
      pending.push(Buffer.from(rest));
      pendingLength += rest.length;
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw brokenLine(
      path,
      line,
      `the file cannot be read past this line (${gzip ? "its gzip data is cut off or damaged: " : ""}${why})`,
    );
  }
  if (tooLong) throw tooLongLine(path, line);
  if (pendingLength > 0) {
    const parsed = parseLine(Buffer.concat(pending), line, true, path);
    if (parsed) yield parsed;
  }
}

/** The file's name for messages. */
export const fileName = displayName;
