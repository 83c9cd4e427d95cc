import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inflateRawSync } from "node:zlib";

import { afterAll, describe, expect, it } from "vitest";

import { createZip } from "./zip";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-zip-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, zip: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, zip);
  return file;
}

/** The entries as the central directory lists them, read back byte by byte (no shared code with the writer). */
function readCentralDirectory(zip: Buffer): { name: string; data: Buffer; method: number }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const body = zip.subarray(start, start + compressed);
    entries.push({ name, method, data: method === 8 ? inflateRawSync(body) : Buffer.from(body) });
    at += 46 + nameLength;
  }
  return entries;
}

describe("createZip", () => {
  const json = JSON.stringify({ comments: Array.from({ length: 50 }, (_, i) => ({ id: i, text: "Hello there" })) });
  const html = "<!doctype html>" + "<p>Ünïcödé — مرحبا</p>".repeat(20);
  const zip = createZip(
    [
      { name: "data.json", data: Buffer.from(json) },
      { name: "index.html", data: Buffer.from(html) },
      { name: "tiny.txt", data: Buffer.from("a") },
    ],
    new Date("2026-12-02T10:20:30Z"),
  );

  it("is read back by Info-ZIP's unzip: names, sizes, a clean CRC test, the same bytes", () => {
    const file = write("a.zip", zip);
    const listing = execFileSync("unzip", ["-l", file], { encoding: "utf8" });
    expect(listing).toMatch(/data\.json/);
    expect(listing).toMatch(/index\.html/);
    expect(listing).toMatch(/2026-12-02 10:20|12-02-2026 10:20/);
    expect(execFileSync("unzip", ["-tq", file], { encoding: "utf8" })).toMatch(/No errors detected/);
    expect(execFileSync("unzip", ["-p", file, "data.json"], { encoding: "utf8" })).toBe(json);
    expect(execFileSync("unzip", ["-p", file, "index.html"], { encoding: "utf8" })).toBe(html);
  });

  it("deflates what shrinks and stores what does not, as the central directory says", () => {
    const entries = readCentralDirectory(zip);
    expect(entries.map((e) => [e.name, e.method])).toEqual([
      ["data.json", 8],
      ["index.html", 8],
      ["tiny.txt", 0],
    ]);
    expect(entries[0]!.data.toString()).toBe(json);
    expect(entries[2]!.data.toString()).toBe("a");
  });

  it("writes an empty archive that unzip accepts, and refuses names that escape the folder", () => {
    const empty = createZip([], new Date());
    expect(empty.length).toBe(22);
    expect(readCentralDirectory(empty)).toEqual([]);
    for (const name of ["../x", "/etc/passwd", "a\\b", "", "a/../../b"])
      expect(() => createZip([{ name, data: Buffer.from("x") }], new Date())).toThrow(/Not a ZIP entry name/);
  });
});
