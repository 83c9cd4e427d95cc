/**
 * CSV as spreadsheets read it (RFC 4180): fields separated by commas, lines by CRLF, a field
 * quoted when it holds a comma, a quote or a line break (quotes doubled). A text field that a
 * spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is
 * prefixed with an apostrophe (OWASP "CSV injection"); numbers are written as they are. Times are
 * ISO 8601 in UTC. Pure.
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const text = value instanceof Date ? value.toISOString() : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/**
 * A CSV download streamed from `rows` (read page by page by the caller, so memory stays bounded):
 * the header line first, UTF-8 with a byte-order mark so spreadsheets read accents right.
 */
export function csvResponse(
  filename: string,
  header: readonly string[],
  rows: AsyncIterable<readonly CsvValue[]>,
): Response {
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(csvLine(next.value)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
