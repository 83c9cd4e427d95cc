/**
 * The CSV files of readers and revenue (Ghost's members export, a subscriptions export), read as
 * a stream with csv-parse: bounded memory whatever the file's size, a UTF-8 byte-order mark and
 * CRLF line ends taken as they come, quoted values over several lines kept whole.
 *
 * - The **header** row names the columns; names are compared trimmed and lower-cased. A required
 *   column missing, a name twice, or no header at all: the file is refused (ImportFileError),
 *   nothing is imported. A column the source does not read is ignored, and said once (a problem
 *   line, "ignored").
 * - A **row** is returned with its line number and its values by column name. What is wrong with
 *   the row itself (fewer or more values than the header has, bytes that are not UTF-8) is its
 *   `error`: the source refuses that row alone.
 * - A file that ends inside a quoted value (cut off mid-way) or that csv-parse cannot read further
 *   ends the rows there with one problem line; the rows before it are imported.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";

import { CsvError, parse } from "csv-parse";

import { nullPrototypeRecord } from "@/server/own-keys";

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

/** A stream of `file`'s records and, through `onBytes`, its bytes. */
function records(path: string, onBytes: (chunk: Buffer) => void): AsyncIterable<string[]> {
  const input = fs.createReadStream(path);
  input.on("data", (chunk) => onBytes(chunk as Buffer));
  const parser = parse({
    bom: true,
    relax_column_count: true,
    // Empty lines come as [""] and are skipped here, so that every line is counted.
    skip_empty_lines: false,
    trim: false,
    // A value never closed would otherwise hold the rest of the file in memory.
    max_record_size: MAX_RECORD_BYTES,
  });
  input.on("error", (error) => parser.destroy(error));
  return input.pipe(parser) as AsyncIterable<string[]>;
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
  let error: string | null = null;
  if (record.length !== columns.length) {
    error = `it has ${record.length} value(s) for the header's ${columns.length} columns (a line cut off, or a comma not in quotes)`;
  } else if (record.some((v) => v.includes("\uFFFD"))) {
    error = "its text is not UTF-8: export the file as UTF-8";
  }
  return { line, values, error };
}

/** A read problem as one line, or the error again when it is not about the file's content. */
function problemOf(error: unknown, line: number): FileProblem {
  if (error instanceof CsvError) {
    const message =
      error.code === "CSV_QUOTE_NOT_CLOSED"
        ? "the file ends inside a quoted value: it was cut off; the rows before it are read"
        : `the file cannot be read further (${error.message}); the rows before it are read`;
    return { where: `line ${line}`, message };
  }
  throw error;
}

/**
 * Iterate `file`'s rows: `onHeader` once with the header's outcome, then every row; a file cut
 * off ends with `onProblem`. ImportFileError when the file cannot be opened or has no header.
 */
async function* csvRows(
  file: ImportFile,
  spec: CsvSpec,
  hooks: { onBytes?: (chunk: Buffer) => void; onHeader?: (h: Header) => void },
  onProblem: (problem: FileProblem) => void,
): AsyncGenerator<CsvRow> {
  let columns: string[] | null = null;
  let nextLine = 1;
  try {
    for await (const record of records(file.path, hooks.onBytes ?? (() => undefined))) {
      const line = nextLine;
      nextLine += linesOf(record);
      if (record.length === 1 && record[0] === "") continue;
      if (columns === null) {
        const header = readHeader(spec, record);
        columns = header.columns;
        hooks.onHeader?.(header);
        continue;
      }
      yield rowOf(columns, record, line);
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new ImportFileError(`The file ${file.name} does not exist.`);
    }
    if (columns === null && !(error instanceof CsvError)) {
      throw new ImportFileError(`The file ${file.name} cannot be read: ${(error as Error).message}`);
    }
    onProblem(problemOf(error, nextLine));
  }
  if (columns === null) throw new ImportFileError(`${spec.title}: the file is empty (no header row).`);
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
  for await (const row of csvRows(file, spec, hooks, (p) => problems.push(p))) {
    rows++;
    visit(row, format);
  }
  return { digest: hash.digest("hex"), rows, columns, problems, format };
}

/** The rows again (a later read); its problems were said by `indexCsv`. */
export function readCsv(file: ImportFile, spec: CsvSpec): AsyncGenerator<CsvRow> {
  return csvRows(file, spec, {}, () => undefined);
}
