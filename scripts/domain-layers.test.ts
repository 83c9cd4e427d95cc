/**
 * The domain's areas (the folders and top-level files of server/ between the cache and the
 * transports) in one order, bottom first: DOMAIN_ORDER in scripts/lint/server-layers.mjs. No
 * source file of an area imports a later area, so no import runs up and none goes round a circle
 * between areas; ESLint holds the outer layers (eslint.config.js). Tests and server/testing may
 * import any area.
 */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { importGraph, type Import } from "./lib/import-graph";
import { PROJECT_ROOT } from "./lib/source-files";
import { DOMAIN, DOMAIN_ORDER } from "./lint/server-layers.mjs";

const SERVER = path.join(PROJECT_ROOT, "server");
const TEST = /\.test\.tsx?$/;

/** The area of a file of server/ ("publishing" for server/publishing/feeds/rss.ts), or null. */
function areaOf(file: string): string | null {
  const relative = path.relative(SERVER, file);
  if (relative.startsWith("..")) return null;
  const [first = "", ...rest] = relative.split(path.sep);
  return rest.length ? first : first.replace(/\.tsx?$/, "");
}

/** "file imports specifier (area, after area)" for each import from an area to a later one. */
function upImports(graph: Map<string, Import[]>, order: readonly string[]): string[] {
  const rank = new Map(order.map((area, index) => [area, index]));
  const found: string[] = [];
  for (const [file, imports] of graph) {
    const from = areaOf(file);
    if (from === null || TEST.test(file) || !rank.has(from)) continue;
    for (const { specifier, target } of imports) {
      const to = areaOf(target);
      if (to !== null && to !== from && rank.has(to) && rank.get(to)! > rank.get(from)!)
        found.push(`${path.relative(PROJECT_ROOT, file)} imports "${specifier}" (${to}, above ${from})`);
    }
  }
  return found.sort();
}

describe("the domain's areas", () => {
  it("are all in the order, once, and the order names only areas", () => {
    expect(new Set(DOMAIN_ORDER).size).toBe(DOMAIN_ORDER.length);
    expect([...DOMAIN_ORDER].sort()).toEqual([...DOMAIN].sort());
  });

  it("finds an import that runs up", () => {
    const file = (name: string) => path.join(SERVER, name);
    const graph = new Map<string, Import[]>([
      [file("jobs/engine.ts"), [{ specifier: "../mail/outbox", target: file("mail/outbox.ts") }]],
      [file("mail/outbox.ts"), [{ specifier: "../jobs/queue", target: file("jobs/queue.ts") }]],
      [file("mail/outbox.int.test.ts"), [{ specifier: "../seed/demo", target: file("seed/demo.ts") }]],
    ]);
    expect(upImports(graph, ["jobs", "mail", "seed"])).toEqual([
      `server/jobs/engine.ts imports "../mail/outbox" (mail, above jobs)`,
    ]);
  });

  it("import only the areas below them", () => {
    expect(upImports(importGraph(), DOMAIN_ORDER)).toEqual([]);
  });
});
