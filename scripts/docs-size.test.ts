/**
 * The hand-written docs stay light: README.md and docs/ (decision records included, the generated
 * API reference not) hold at most 460 kB in all, and each area's CONTEXT.md a page (5 kB, about 60 lines). Area docs
 * state the contract and the behaviour; per-endpoint fields and statuses live in
 * docs/api-reference.md, which they link to. A failure lists the biggest files, where to cut first.
 */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { contextFiles, handWrittenDocs } from "./lib/docs";
import { PROJECT_ROOT } from "./lib/source-files";

const BUDGET = 460_000;
const CONTEXT_BUDGET = 5_000;

const sizes = (files: string[]) =>
  files
    .map((file) => ({ file: path.relative(PROJECT_ROOT, file), bytes: fs.statSync(file).size }))
    .sort((a, b) => b.bytes - a.bytes);

describe("hand-written docs", () => {
  it(`hold at most ${BUDGET / 1000} kB in all`, () => {
    const all = sizes(handWrittenDocs());
    const total = all.reduce((sum, { bytes }) => sum + bytes, 0);
    const biggest = all.slice(0, 10).map(({ file, bytes }) => `${(bytes / 1000).toFixed(1)} kB ${file}`);
    expect(total <= BUDGET, `${(total / 1000).toFixed(1)} kB in all; biggest:\n${biggest.join("\n")}`).toBe(true);
  });

  it(`keep each CONTEXT.md to a page (${CONTEXT_BUDGET / 1000} kB)`, () => {
    const over = sizes(contextFiles()).filter(({ bytes }) => bytes > CONTEXT_BUDGET);
    expect(over.map(({ file, bytes }) => `${file}: ${bytes} bytes`)).toEqual([]);
  });
});
