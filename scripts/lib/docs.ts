/**
 * The project's hand-written docs: README.md and the markdown below docs/ (decision records
 * included), without the generated API reference; with `contextFiles`, also each area's CONTEXT.md.
 */
import fs from "node:fs";
import path from "node:path";

import { PROJECT_ROOT } from "./source-files";

/** Written by `npm run docs:api`, not by hand. */
const GENERATED = new Set(["docs/api-reference.md"]);

/** The CONTEXT.md files below server/ and the other source folders, as absolute paths. */
export function contextFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "generated" && !entry.name.startsWith(".")) walk(file);
      } else if (entry.name === "CONTEXT.md") found.push(file);
    }
  };
  for (const folder of ["server", "app", "components", "inngest", "widgets", "sdk", "scripts"])
    if (fs.existsSync(path.join(PROJECT_ROOT, folder))) walk(path.join(PROJECT_ROOT, folder));
  return found.sort();
}

/** README.md and docs/**\/*.md but the generated reference, as absolute paths. */
export function handWrittenDocs({ contextFiles: withContext = false } = {}): string[] {
  const files = [path.join(PROJECT_ROOT, "README.md")];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".md") && !GENERATED.has(path.relative(PROJECT_ROOT, file))) files.push(file);
    }
  };
  walk(path.join(PROJECT_ROOT, "docs"));
  return withContext ? [...files, ...contextFiles()] : files;
}
