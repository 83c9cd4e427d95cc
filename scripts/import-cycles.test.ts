/**
 * No import circles among the project's own sources: the import graph of server/, app/,
 * components/, inngest/, scripts/, widgets/, sdk/ and the root's files, type-only imports
 * included, has no cycle. ESLint's import/no-cycle says the same but more than doubles the lint's
 * time; this reads each file's import lines once (TypeScript's preProcessFile) and resolves them
 * as tsconfig.json does. Layers are eslint.config.js's (no-restricted-imports).
 */
import fs from "node:fs";
import path from "node:path";

import ts from "typescript";
import { describe, expect, it } from "vitest";

import { PROJECT_ROOT, projectSourceFiles } from "./lib/source-files";

/** Each file's imports (static, dynamic, re-exports, type-only) that resolve to project sources. */
function importGraph(): Map<string, string[]> {
  const config = ts.readConfigFile(path.join(PROJECT_ROOT, "tsconfig.json"), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, PROJECT_ROOT);
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(PROJECT_ROOT, (name) => name, options);
  const files = projectSourceFiles();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = new Set<string>();
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith(".") && !specifier.startsWith("@/")) continue;
      const resolved = ts.resolveModuleName(specifier, file, options, host, cache).resolvedModule;
      if (resolved && known.has(resolved.resolvedFileName)) targets.add(resolved.resolvedFileName);
    }
    graph.set(file, [...targets]);
  }
  return graph;
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
