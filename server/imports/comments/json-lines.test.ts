import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, describe, expect, it } from "vitest";

import { ImportFileError } from "../types";
import { coralDate } from "./coral";
import { readJsonLines, type JsonLine } from "./json-lines";
import { isRemark42Guest } from "./remark42";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "json-lines-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function writeTmp(name: string, content: string | Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
}

async function readAll(file: string): Promise<{ lines: JsonLine[]; bytes: number }> {
  const lines: JsonLine[] = [];
  let bytes = 0;
  for await (const line of readJsonLines(file, (b) => (bytes += b.length))) lines.push(line);
  return { lines, bytes };
}

describe("reading JSON lines", () => {
  it("reads one value a line: a BOM, CRs and blank lines dropped, line numbers kept", async () => {
    const file = writeTmp("a.jsonl", '\ufeff{"a":1}\r\n\r\n{"b":"é 日本 👍"}\n  \n[3]');
    const { lines, bytes } = await readAll(file);
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: "é 日本 👍" } },
      { line: 5, value: [3] },
    ]);
    expect(bytes).toBe(fs.statSync(file).size);
  });

  it("says which line is not JSON, does not decode, or is cut off, and reads on", async () => {
    const bad = Buffer.concat([
      Buffer.from('{"ok":1}\n{"broken" 2}\n'),
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d, 0x0a]),
      Buffer.from('{"ok":2}\n{"cut":"off'),
    ]);
    const { lines } = await readAll(writeTmp("b.jsonl", bad));
    expect(lines).toEqual([
      { line: 1, value: { ok: 1 } },
      { line: 2, error: expect.stringMatching(/^it is not JSON: /) as string },
      { line: 3, error: "it holds bytes that are not UTF-8 (export the file as UTF-8)" },
      { line: 4, value: { ok: 2 } },
      { line: 5, error: expect.stringMatching(/^the file ends inside this line \(was it cut off\?\): /) as string },
    ]);
  });

  it("reads lines across 64 KB reads", async () => {
    const long = JSON.stringify({ text: "x".repeat(200_000) });
    const { lines } = await readAll(writeTmp("c.jsonl", `${long}\n${long}\n`));
    expect(lines.map((l) => ("value" in l ? (l.value as { text: string }).text.length : l.error))).toEqual([
      200_000, 200_000,
    ]);
  });

  it("unpacks a gzip file, hashing the bytes as stored, and says where a cut gzip file ends", async () => {
    const plain = '{"a":1}\n{"a":2}\n';
    const gz = gzipSync(Buffer.from(plain));
    const file = writeTmp("d.gz", gz);
    const { lines, bytes } = await readAll(file);
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { a: 2 } },
    ]);
    expect(bytes).toBe(gz.length);
    const cut = await readAll(writeTmp("e.gz", gz.subarray(0, gz.length - 6)));
    expect(cut.lines.at(-1)).toEqual({
      line: expect.any(Number) as number,
      error: expect.stringMatching(/its gzip data is cut off or damaged/) as string,
    });
  });

  it("refuses a missing file or a folder with one line", async () => {
    await expect(readAll(path.join(tmp, "nowhere.jsonl"))).rejects.toThrow(ImportFileError);
    await expect(readAll(path.join(tmp, "nowhere.jsonl"))).rejects.toThrow(/no such file/);
    await expect(readAll(tmp)).rejects.toThrow(/it is a directory/);
  });
});

describe("Remark42 and Coral values", () => {
  it("tells Remark42's guests from accounts by the id's prefix", () => {
    expect(isRemark42Guest("anonymous_0f1e")).toBe(true);
    expect(isRemark42Guest("deleted")).toBe(true);
    expect(isRemark42Guest("")).toBe(true);
    expect(isRemark42Guest("github_2c8f")).toBe(false);
    expect(isRemark42Guest("email_3b4c")).toBe(false);
  });

  it("reads Coral's dates as its downloader and mongoexport write them", () => {
    const at = new Date("2021-06-01T12:00:00Z");
    expect(coralDate("2021-06-01T12:00:00.000Z")).toEqual(at);
    expect(coralDate({ $date: "2021-06-01T12:00:00Z" })).toEqual(at);
    expect(coralDate({ $date: at.getTime() })).toEqual(at);
    expect(coralDate({ $date: { $numberLong: String(at.getTime()) } })).toEqual(at);
    expect(coralDate(null)).toBeNull();
    expect(coralDate("yesterday")).toBe("invalid");
    expect(coralDate({ $date: { $numberLong: "x" } })).toBe("invalid");
  });
});
