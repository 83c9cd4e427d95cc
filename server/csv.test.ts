/** CSV fields and lines (csv.ts): quoting, formula injection, values of every kind, the streamed download. */
import { describe, expect, it } from "vitest";

import { csvField, csvLine, csvResponse } from "./csv";

describe("csv", () => {
  it("quotes what needs it and doubles quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("café ✓")).toBe("café ✓");
  });

  it("keeps a spreadsheet from running text as a formula", () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvField("+1 555")).toBe("'+1 555");
    expect(csvField("-2")).toBe("'-2");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField(-250)).toBe("-250");
  });

  it("writes numbers, booleans, times in UTC and nothing for null", () => {
    expect(csvLine([1, true, false, new Date("2026-03-02T10:00:00+02:00"), null, undefined, Number.NaN])).toBe(
      "1,yes,no,2026-03-02T08:00:00.000Z,,,\r\n",
    );
  });

  it("streams the header then each row, with a byte-order mark", async () => {
    async function* rows() {
      yield ["ada", 1];
      yield ["bo, jr", 2];
    }
    const res = csvResponse("x.csv", ["name", "n"], rows());
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="x.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes)).toBe('name,n\r\nada,1\r\n"bo, jr",2\r\n');
  });
});
