/**
 * The import graph of the project's own sources, for the checks over all of them (the
 * import-cycles and domain-layers tests): each file's imports (static, dynamic, re-exports,
 * type-only) that resolve to project sources, read once with TypeScript's preProcessFile and
 * resolved as tsconfig.json does (the @/ alias included).
 */
import fs from "node:fs";
import path from "node:path";

import ts from "typescript";

import { PROJECT_ROOT, projectSourceFiles } from "./source-files";

/** One import of a file: as written, and the project file it resolves to. */
export type Import = { specifier: string; target: string };

/** Each source file (absolute path) with its imports of other project sources. */
export function importGraph(): Map<string, Import[]> {
  const config = ts.readConfigFile(path.join(PROJECT_ROOT, "tsconfig.json"), (file) => ts.sys.readFile(file));
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, PROJECT_ROOT);
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(PROJECT_ROOT, (name) => name, options);
  const files = projectSourceFiles();
  const known = new Set(files);
  const graph = new Map<string, Import[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const imports = new Map<string, Import>();
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith(".") && !specifier.startsWith("@/")) continue;
      const resolved = ts.resolveModuleName(specifier, file, options, host, cache).resolvedModule;
      if (resolved && known.has(resolved.resolvedFileName) && !imports.has(resolved.resolvedFileName))
        imports.set(resolved.resolvedFileName, { specifier, target: resolved.resolvedFileName });
    }
    graph.set(file, [...imports.values()]);
  }
  return graph;
}
