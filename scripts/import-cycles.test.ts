/**
 * No import circles among the project's own sources: the import graph of server/, app/,
 * components/, inngest/, scripts/, widgets/, sdk/ and the root's files, type-only imports
 * included, has no cycle. ESLint's import/no-cycle says the same but more than doubles the lint's
 * time; this reads each file's import lines once (scripts/lib/import-graph.ts). Layers are
 * eslint.config.js's (no-restricted-imports) and, among the domain's areas, scripts/domain-layers.test.ts's.
 */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { importGraph as readImportGraph } from "./lib/import-graph";
import { PROJECT_ROOT } from "./lib/source-files";

/** Each file's imports, as the files they resolve to. */
function importGraph(): Map<string, string[]> {
  return new Map([...readImportGraph()].map(([file, imports]) => [file, imports.map((i) => i.target)]));
}

/** One path round each circle found (a depth-first walk's back edges). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("the import graph", () => {
  it("reads the project's sources and resolves the @/ alias", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(500);
    const route = path.join(PROJECT_ROOT, "server/http/checkout-routes.ts");
    expect(graph.get(route)).toContain(path.join(PROJECT_ROOT, "server/subscriptions/checkout/create.ts"));
  });

  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c", "a"]]);
  });

  it("has no circle", () => {
    const found = cycles(importGraph()).map((cycle) =>
      cycle.map((file) => path.relative(PROJECT_ROOT, file)).join(" → "),
    );
    expect(found).toEqual([]);
  });
});
