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
  it("reads one object a line: a BOM, CRs, blank lines and a final newline dropped, line numbers kept", async () => {
    const file = writeTmp("a.jsonl", '\ufeff{"a":1}\r\n\r\n{"b":"é 日本 👍"}\n  \n{"c":[3]}\n');
    const { lines, bytes } = await readAll(file);
    expect(lines).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: "é 日本 👍" } },
      { line: 5, value: { c: [3] } },
    ]);
    expect(bytes).toBe(fs.statSync(file).size);
  });

  const refusals: [string, string | Buffer, string][] = [
    ["not JSON", '{"ok":1}\n{"broken" 2}\n{"ok":2}\n', "line 2: it is not JSON ("],
    ["JSON but not an object", '{"ok":1}\n\n[3]\n{"ok":2}\n', "line 3: it is a list, not a JSON object."],
    ["a number", '{"ok":1}\n42\n', "line 2: it is a number, not a JSON object."],
    ["null", "null\n", "line 1: it is null, not a JSON object."],
    [
      "not UTF-8",
      Buffer.concat([Buffer.from('{"ok":1}\n'), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d, 0x0a])]),
      "line 2: it holds bytes that are not UTF-8 (export the file as UTF-8).",
    ],
    ["cut off", '{"ok":1}\n{"ok":2}\n{"cut":"off', "line 3: the file ends inside this line: it was cut off ("],
  ];
  for (const [name, content, message] of refusals) {
    it(`refuses the whole file on a line ${name}, naming the line, before reading on`, async () => {
      const file = writeTmp(`${name.replace(/\W/g, "-")}.jsonl`, content);
      const seen: JsonLine[] = [];
      const reading = (async () => {
        for await (const line of readJsonLines(file, () => undefined)) seen.push(line);
      })();
      await expect(reading).rejects.toThrow(ImportFileError);
      await expect(readAll(file)).rejects.toThrow(`${path.basename(file)}: ${message}`);
      await expect(readAll(file)).rejects.toThrow(/Nothing of it is imported\.$/);
      expect(seen.every((l) => l.value.ok !== undefined)).toBe(true);
    });
  }

  it("reads lines across 64 KB reads", async () => {
    const long = JSON.stringify({ text: "x".repeat(200_000) });
    const { lines } = await readAll(writeTmp("c.jsonl", `${long}\n${long}\n`));
    expect(lines.map((l) => (l.value.text as string).length)).toEqual([200_000, 200_000]);
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
    await expect(readAll(writeTmp("e.gz", gz.subarray(0, gz.length - 6)))).rejects.toThrow(
      /^e\.gz: line \d+: the file cannot be read past this line \(its gzip data is cut off or damaged: /,
    );
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
