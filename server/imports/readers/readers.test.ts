import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { ImportFileError } from "../types";
import { planOptionsError } from "./command";
import { indexCsv, readCsv, type CsvRow, type CsvSpec } from "./csv";
import { parseAmount, parseCsvBoolean, parseCsvDate, parseCurrency, parseIdentity } from "./values";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "readers-csv-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(content: string | Buffer) {
  const p = path.join(dir, `f${n++}.csv`);
  fs.writeFileSync(p, content);
  return { path: p, name: path.basename(p) };
}

const SPEC: CsvSpec = {
  title: "A test export",
  required: ["email", ["plan", "tier"]],
  known: ["email", "plan", "tier", "name"],
};

async function read(content: string | Buffer) {
  const rows: CsvRow[] = [];
  const f = file(content);
  const index = await indexCsv(f, SPEC, (row) => rows.push(row));
  const again: CsvRow[] = [];
  for await (const row of readCsv(f, SPEC)) again.push(row);
  expect(again).toEqual(rows);
  return { index, rows };
}

describe("reading a CSV file", () => {
  it("takes a byte-order mark, CRLF, quoted line breaks and header names in any case, counting lines", async () => {
    const { index, rows } = await read(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          'Email, Plan ,Colour\r\nada@example.com,gold,"red,\r\nblue"\r\n\r\nbob@example.net,"say ""hi""",\r\n',
        ),
      ]),
    );
    expect(index.rows).toBe(2);
    expect(index.columns).toEqual(["email", "plan", "colour"]);
    expect(index.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(index.problems).toEqual([
      { where: "line 1", message: 'the column "colour" is not read by this import: ignored' },
    ]);
    expect(rows).toEqual([
      { line: 2, values: { email: "ada@example.com", plan: "gold", colour: "red,\r\nblue" }, error: null },
      { line: 5, values: { email: "bob@example.net", plan: 'say "hi"', colour: "" }, error: null },
    ]);
  });

  it("refuses a row with too few values alone, and a file cut off or not in its encoding whole, naming the line", async () => {
    const { rows } = await read("email,plan\nada@example.com\nzoe@example.fr,gold\n");
    expect(rows.map((r) => [r.line, r.error])).toEqual([
      [2, "it has 1 value(s) for the header's 2 columns (a comma not in quotes?)"],
      [3, null],
    ]);
    const refused = (content: string | Buffer) => {
      const f = file(content);
      return expect(indexCsv(f, SPEC, () => undefined)).rejects.toThrow(f.name);
    };
    const latin1 = Buffer.concat([
      Buffer.from("email,plan\nzoe@example.fr,gold\ncaf"),
      Buffer.from([0xe9]),
      Buffer.from("@example.com,gold\n"),
    ]);
    await refused(latin1);
    await expect(indexCsv(file(latin1), SPEC, () => undefined)).rejects.toThrow(
      /is not in the encoding it uses \(utf-8\): line 3, column 4 holds bytes that do not decode\. Nothing of it is imported/,
    );
    await expect(
      indexCsv(file('email,plan\nzoe@example.fr,gold\nyann@example.com,"gold\n'), SPEC, () => undefined),
    ).rejects.toThrow(/: line 3: the file ends inside a quoted value: it was cut off\. Nothing of it is imported\./);
    await expect(indexCsv(file("email,plan\nzoe@example.fr,gold\nyann@exa"), SPEC, () => undefined)).rejects.toThrow(
      /: line 3: the file ends in this row, with fewer values than the header and no line end: it was cut off\./,
    );
    // UTF-16 without its byte-order mark: NUL bytes in every ASCII character.
    await expect(
      indexCsv(file(Buffer.from("email,plan\na@b.co,gold\n", "utf16le")), SPEC, () => undefined),
    ).rejects.toThrow(/: line 1, column 2 holds a NUL character: is it UTF-16 without a byte-order mark\?/);
  });

  it("reads a file by its byte-order mark: UTF-8, UTF-16 LE and BE", async () => {
    const text = "email,plan\nzoë@example.fr,gold\n李@example.cn,silver\n";
    const be = Buffer.from(text, "utf16le").swap16();
    for (const bytes of [
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), be]),
    ]) {
      const { rows } = await read(bytes);
      expect(rows.map((r) => [r.line, r.values.email, r.error])).toEqual([
        [2, "zoë@example.fr", null],
        [3, "李@example.cn", null],
      ]);
    }
  });

  it("refuses the whole file when its header is not the format's", async () => {
    const cases: [string, string][] = [
      ["name,plan\nAda,gold\n", 'A test export: the header has no column "email" (it has "name", "plan").'],
      [
        "email,name\na@b.co,Ada\n",
        'A test export: the header has no column "plan" or "tier" (it has "email", "name").',
      ],
      ["email,plan,EMAIL\n", 'A test export: the header names the column "email" twice.'],
      ["", "A test export: the file is empty (no header row)."],
      ["\n\n", "A test export: the file is empty (no header row)."],
    ];
    for (const [content, message] of cases) {
      await expect(indexCsv(file(content), SPEC, () => undefined)).rejects.toThrow(new ImportFileError(message));
    }
    await expect(
      indexCsv({ path: path.join(dir, "absent.csv"), name: "absent.csv" }, SPEC, () => undefined),
    ).rejects.toThrow(new ImportFileError("The file absent.csv does not exist."));
  });
});

describe("the values of a row", () => {
  it("reads amounts into integer cents exactly, refusing what could mean two things", () => {
    expect(parseAmount({ amount: "9.00" }, "USD")).toEqual({ cents: 900 });
    expect(parseAmount({ amount: "1234.56" }, "EUR")).toEqual({ cents: 123456 });
    expect(parseAmount({ amount: "900" }, "JPY")).toEqual({ cents: 900 });
    expect(parseAmount({ amount: "1.500" }, "KWD")).toEqual({ cents: 1500 });
    expect(parseAmount({ amount_cents: "900" }, "USD")).toEqual({ cents: 900 });
    expect(parseAmount({ amount: "9.00", amount_cents: "900" }, "USD")).toEqual({ cents: 900 });
    expect(parseAmount({ amount: "0.10" }, "USD")).toEqual({ cents: 10 });
    for (const amount of ["9", "9.5", "9.001", "9,00", "1,000.00", "-9.00", "$9.00", "9.00 x", "1e3", "0x10"]) {
      const answer = parseAmount({ amount }, "USD");
      expect(answer, amount).toEqual({
        error: expect.stringMatching(/is not an amount of USD written with its 2 decimal/) as string,
      });
    }
    expect(parseAmount({ amount: "9.0" }, "JPY")).toMatchObject({
      error: expect.stringContaining("(e.g. 900)") as string,
    });
    expect(parseAmount({ amount: "9.00", amount_cents: "90" }, "USD")).toEqual({
      error: 'its amount "9.00" and amount_cents "90" disagree',
    });
    expect(parseAmount({ amount_cents: "9.00" }, "USD")).toEqual({
      error: 'its amount_cents "9.00" is not a whole number of cents',
    });
    expect(parseAmount({ amount_cents: "99999999999" }, "USD")).toMatchObject({ error: expect.any(String) as string });
    expect(parseAmount({}, "USD")).toEqual({ error: "it has no amount" });
  });

  it("reads booleans, dates, currencies and identities, or says they are not", () => {
    expect(["true", "TRUE", "1", "yes"].map(parseCsvBoolean)).toEqual([true, true, true, true]);
    expect(["false", "0", "No"].map(parseCsvBoolean)).toEqual([false, false, false]);
    expect([parseCsvBoolean(""), parseCsvBoolean(undefined), parseCsvBoolean("maybe")]).toEqual([
      null,
      null,
      "invalid",
    ]);
    expect(parseCsvDate("2026-01-31T10:00:00.000Z")).toEqual(new Date("2026-01-31T10:00:00Z"));
    expect(parseCsvDate("2026-01-31 10:00:00")).toEqual(new Date("2026-01-31T10:00:00Z"));
    expect(parseCsvDate("2026-01-31T12:00:00+02:00")).toEqual(new Date("2026-01-31T10:00:00Z"));
    expect([parseCsvDate("31/01/2026"), parseCsvDate("2027-13-45"), parseCsvDate("")]).toEqual([
      "invalid",
      "invalid",
      null,
    ]);
    expect([parseCurrency(" usd "), parseCurrency("US$"), parseCurrency("")]).toEqual(["USD", null, null]);
    expect(parseIdentity("Ghost:5f01")).toEqual({ provider: "ghost", externalId: "5f01" });
    expect(parseIdentity("publisher: abc ")).toEqual({ provider: "publisher", externalId: "abc" });
    expect([parseIdentity("nocolon"), parseIdentity("1x:abc"), parseIdentity("a:b"), parseIdentity("ab:")]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});

describe("the plan options of the command line", () => {
  it("go with the subscriptions import (a mapping needed unless a dry run) and Ghost's members (--plans)", () => {
    expect(planOptionsError({ from: "subscriptions", dryRun: true })).toBeNull();
    expect(planOptionsError({ from: "subscriptions", dryRun: false, plans: "p.json" })).toBeNull();
    expect(planOptionsError({ from: "subscriptions", dryRun: false })).toMatch(
      /^A subscriptions import needs the plan mapping/,
    );
    expect(planOptionsError({ from: "disqus", dryRun: false, plans: "p.json" })).toBe(
      "--plans goes with --from subscriptions or ghost-members (its complimentary members' tiers), --plans-template with --from subscriptions only.",
    );
    expect(planOptionsError({ from: "ghost-members", dryRun: false, plans: "p.json" })).toBeNull();
    expect(planOptionsError({ from: "ghost-members", dryRun: true, plansTemplate: "t.json" })).toMatch(
      /--plans-template with --from subscriptions only/,
    );
    expect(planOptionsError({ from: "disqus", dryRun: false })).toBeNull();
  });
});
