/**
 * The CSV files of readers and revenue (Ghost's members export, a subscriptions export), read as
 * a stream with csv-parse: bounded memory whatever the file's size, CRLF line ends taken as they
 * come, quoted values over several lines kept whole.
 *
 * What is wrong with the file as a whole refuses it whole (ImportFileError, naming the line):
 * the import's first read (`prepare`) meets it before anything is written, so nothing is imported.
 * - **Encoding**: a byte-order mark says it (UTF-8, UTF-16 LE or BE: Excel's "Unicode text" is
 *   read as what it is); without one the file must be UTF-8. Bytes that do not decode, or a NUL
 *   character (UTF-16 without its mark), refuse the file naming their line (text-decoding.ts).
 * - **Cut off**: a file ending inside a quoted value, or in a row with fewer values than the
 *   header and no line end, was truncated; csv-parse failing to read on is refused the same way.
 *
 * - The **header** row names the columns; names are compared trimmed and lower-cased. A required
 *   column missing, a name twice, or no header at all: the file is refused (ImportFileError),
 *   nothing is imported. A column the source does not read is ignored, and said once (a problem
 *   line, "ignored").
 * - A **row** is returned with its line number and its values by column name. A row with fewer
 *   or more values than the header has (a comma not in quotes) is its `error`: the source refuses
 *   that row alone, as it does a row whose values are wrong (a bad date, an unknown plan).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { Transform, type TransformCallback } from "node:stream";

import { CsvError, parse } from "csv-parse";

import { nullPrototypeRecord } from "@/server/own-keys";

import { positionIn, StrictDecoder, type TextPosition } from "../text-decoding";
import { ImportFileError, type FileProblem, type ImportFile } from "../types";

/** What a source reads from a CSV file. */
export type CsvSpec = {
  /** The format, in messages ("a Ghost members export"). */
  title: string;
  /** Columns the header must have; an inner list means "at least one of these". */
  required: readonly (string | readonly string[])[];
  /** Every column the source reads (the required ones included). */
  known: readonly string[];
  /** Other systems' exports the source takes as they are, told apart by their header. */
  formats?: readonly CsvFormat[];
};

/**
 * Another system's export (Stripe's subscriptions export): recognised when its header has every
 * `detect` column; its columns are then renamed to the source's (`columns`: ours, then theirs
 * in order of preference; the first present is read, the others are ignored), and `required`
 * replaces the spec's.
 */
export type CsvFormat = {
  name: string;
  title: string;
  detect: readonly string[];
  columns: readonly (readonly [string, readonly string[]])[];
  required: CsvSpec["required"];
};

export type CsvRow = {
  /** The line the row starts on (the header is line 1). */
  line: number;
  values: Record<string, string>;
  /** What is wrong with the row as a row; null when nothing. */
  error: string | null;
};

/** What the first read of a file found; `format`: the other system's export it is, if any. */
type CsvIndex = { digest: string; rows: number; columns: string[]; problems: FileProblem[]; format: CsvFormat | null };

/** The longest row read (characters): far beyond any reader's or subscription's row. */
const MAX_RECORD_BYTES = 1_000_000;

/** The encoding a byte-order mark says, and its length; UTF-8 without one. */
function bomEncoding(head: Buffer): { encoding: string; bomLength: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: "utf-8", bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf-16le", bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf-16be", bomLength: 2 };
  return { encoding: "utf-8", bomLength: 0 };
}

/** Bytes to UTF-8 text in the file's encoding (see the file's comment); `endsWithNewline` once done. */
class CsvDecoding extends Transform {
  private decoder: StrictDecoder | null = null;
  private at: TextPosition = { line: 1, column: 1 };
  endsWithNewline = false;

  constructor(private readonly name: string) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pass(chunk, done);
  }

  override _flush(done: TransformCallback): void {
    this.pass(null, done);
  }

  private pass(chunk: Buffer | null, done: TransformCallback): void {
    try {
      let bytes = chunk;
      if (!this.decoder && bytes) {
        const { encoding, bomLength } = bomEncoding(bytes);
        this.decoder = new StrictDecoder(encoding, this.name);
        bytes = bytes.subarray(bomLength);
      }
      // A NUL byte in a file read as UTF-8: UTF-16 without its mark (said before its other bytes fail to decode).
      const nulByte = this.decoder?.encoding === "utf-8" && bytes ? bytes.indexOf(0) : -1;
      const text = this.decoder
        ? this.decoder.decode(nulByte === -1 ? bytes : bytes!.subarray(0, nulByte + 1), this.at)
        : "";
      const nul = text.indexOf("\u0000");
      if (nul !== -1) {
        const where = positionIn(text, nul, this.at);
        throw new ImportFileError(
          `${this.name}: line ${where.line}, column ${where.column} holds a NUL character: is it UTF-16 without a byte-order mark? Nothing of it is imported: export it as UTF-8.`,
        );
      }
      if (text) {
        this.at = positionIn(text, text.length, this.at);
        this.endsWithNewline = text.endsWith("\n");
      }
      done(null, text ? Buffer.from(text, "utf8") : undefined);
    } catch (error) {
      done(error as Error);
    }
  }
}

/** A stream of `file`'s records and, through `onBytes`, its bytes; `decoding` says how the text ended. */
function records(
  file: ImportFile,
  onBytes: (chunk: Buffer) => void,
): { rows: AsyncIterable<string[]>; decoding: CsvDecoding } {
  const input = fs.createReadStream(file.path);
  input.on("data", (chunk) => onBytes(chunk as Buffer));
  const decoding = new CsvDecoding(file.name);
  const parser = parse({
    relax_column_count: true,
    // Empty lines come as [""] and are skipped here, so that every line is counted.
    skip_empty_lines: false,
    trim: false,
    // A value never closed would otherwise hold the rest of the file in memory.
    max_record_size: MAX_RECORD_BYTES,
  });
  input.on("error", (error) => parser.destroy(error));
  decoding.on("error", (error) => parser.destroy(error));
  return { rows: input.pipe(decoding).pipe(parser) as AsyncIterable<string[]>, decoding };
}

/** The header's columns under the source's names, when it is `format`'s (see CsvFormat). */
function renamed(format: CsvFormat, columns: string[]): string[] {
  const out = [...columns];
  for (const [ours, theirs] of format.columns) {
    const at = theirs.map((name) => columns.indexOf(name)).find((i) => i >= 0);
    if (at !== undefined) out[at] = ours;
  }
  return out;
}

type Header = { columns: string[]; problems: FileProblem[]; format: CsvFormat | null };

/** The header's column names, checked against `spec` (ImportFileError when they do not hold). */
function readHeader(spec: CsvSpec, record: string[]): Header {
  const own = record.map((name) => name.trim().toLowerCase());
  const format = spec.formats?.find((f) => f.detect.every((c) => own.includes(c))) ?? null;
  const columns = format ? renamed(format, own) : own;
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) throw new ImportFileError(`${spec.title}: the header names the column "${name}" twice.`);
    seen.add(name);
  }
  for (const need of format?.required ?? spec.required) {
    const options = typeof need === "string" ? [need] : need;
    if (!options.some((o) => seen.has(o))) {
      const what = options.length === 1 ? `"${options[0]}"` : options.map((o) => `"${o}"`).join(" or ");
      throw new ImportFileError(
        `${format?.title ?? spec.title}: the header has no column ${what} (it has ${columns.map((c) => `"${c}"`).join(", ") || "none"}).`,
      );
    }
  }
  const unknown = columns.filter((c) => c !== "" && !spec.known.includes(c));
  const problems: FileProblem[] = unknown.length
    ? [
        {
          where: "line 1",
          message: `${unknown.length === 1 ? "the column" : `${unknown.length} columns`} ${unknown.map((c) => `"${c}"`).join(", ")} ${unknown.length === 1 ? "is" : "are"} not read by this import: ignored`,
        },
      ]
    : [];
  return { columns, problems, format };
}

/** The lines a record takes: one, and one more per line break inside its quoted values. */
const linesOf = (record: string[]) => record.reduce((n, v) => n + (v.match(/\n/g)?.length ?? 0), 1);

function rowOf(columns: string[], record: string[], line: number): CsvRow {
  const values = nullPrototypeRecord<string>();
  columns.forEach((name, i) => {
    if (name !== "") values[name] = record[i] ?? "";
  });
  const error =
    record.length !== columns.length
      ? `it has ${record.length} value(s) for the header's ${columns.length} columns (a comma not in quotes?)`
      : null;
  return { line, values, error };
}

/** The refusal of a file csv-parse cannot read on (cut off inside a quoted value, or worse). */
function cutOff(file: ImportFile, error: CsvError, line: number): ImportFileError {
  const why =
    error.code === "CSV_QUOTE_NOT_CLOSED"
      ? "the file ends inside a quoted value: it was cut off"
      : `the file cannot be read on (${error.message})`;
  return new ImportFileError(`${file.name}: line ${line}: ${why}. Nothing of it is imported.`);
}

/**
 * Iterate `file`'s rows: `onHeader` once with the header's outcome, then every row.
 * ImportFileError when the file cannot be opened, has no header, or is refused whole (see the
 * file's comment): the first read of a file meets that before anything is written.
 */
async function* csvRows(
  file: ImportFile,
  spec: CsvSpec,
  hooks: { onBytes?: (chunk: Buffer) => void; onHeader?: (h: Header) => void },
): AsyncGenerator<CsvRow> {
  let columns: string[] | null = null;
  let nextLine = 1;
  let last: { line: number; short: boolean } | null = null;
  const { rows, decoding } = records(file, hooks.onBytes ?? (() => undefined));
  try {
    for await (const record of rows) {
      const line = nextLine;
      nextLine += linesOf(record);
      if (record.length === 1 && record[0] === "") continue;
      if (columns === null) {
        const header = readHeader(spec, record);
        columns = header.columns;
        hooks.onHeader?.(header);
        continue;
      }
      last = { line, short: record.length < columns.length };
      yield rowOf(columns, record, line);
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ImportFileError(`The file ${file.name} does not exist.`);
    }
    if (error instanceof CsvError) throw cutOff(file, error, nextLine);
    throw new ImportFileError(`The file ${file.name} cannot be read: ${(error as Error).message}`);
  }
  if (columns === null) throw new ImportFileError(`${spec.title}: the file is empty (no header row).`);
  if (last?.short && !decoding.endsWithNewline) {
    throw new ImportFileError(
      `${file.name}: line ${last.line}: the file ends in this row, with fewer values than the header and no line end: it was cut off. Nothing of it is imported.`,
    );
  }
}

/**
 * The first read: checks the header, digests the bytes, counts the rows and hands each to
 * `visit` (a source's index of what later rows look up); keeps nothing of the file itself.
 */
export async function indexCsv(
  file: ImportFile,
  spec: CsvSpec,
  visit: (row: CsvRow, format: CsvFormat | null) => void,
): Promise<CsvIndex> {
  const hash = createHash("sha256");
  const problems: FileProblem[] = [];
  let columns: string[] = [];
  let format: CsvFormat | null = null;
  let rows = 0;
  const hooks = {
    onBytes: (chunk: Buffer) => hash.update(chunk),
    onHeader: (h: Header) => {
      columns = h.columns;
      format = h.format;
      problems.push(...h.problems);
    },
  };
  for await (const row of csvRows(file, spec, hooks)) {
    rows++;
    visit(row, format);
  }
  return { digest: hash.digest("hex"), rows, columns, problems, format };
}

/** The rows again (a later read); its problems were said by `indexCsv`. */
export function readCsv(file: ImportFile, spec: CsvSpec): AsyncGenerator<CsvRow> {
  return csvRows(file, spec, {});
}
