/**
 * The project's own source files, as the checks over all of them read them (the import-cycles and
 * dead-exports tests): the JavaScript and TypeScript files below the given folders and at the
 * root, without node_modules, .next, generated code and declaration files.
 */
import fs from "node:fs";
import path from "node:path";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
/** The folders that hold the project's sources (e2e/ holds only its browser tests). */
export const SOURCE_FOLDERS = ["server", "app", "components", "inngest", "scripts", "widgets", "sdk"];

const SKIP_DIR = /(?:^|\/)(?:node_modules|\.next|generated)$/;
/** Generated modules and declaration files (a route folder may be named like one: accesstype.d.ts/). */
const SKIP_FILE = /\.generated\.ts$|\.d\.ts$/;
const SOURCE = /\.(?:ts|tsx|js|mjs)$/;

/** The source files below `folders` (those that exist) and at the root, as absolute paths. */
export function projectSourceFiles(folders: readonly string[] = SOURCE_FOLDERS): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIR.test(path.relative(PROJECT_ROOT, file))) walk(file);
      } else if (SOURCE.test(entry.name) && !SKIP_FILE.test(entry.name)) files.push(file);
    }
  };
  for (const folder of folders)
    if (fs.existsSync(path.join(PROJECT_ROOT, folder))) walk(path.join(PROJECT_ROOT, folder));
  for (const entry of fs.readdirSync(PROJECT_ROOT, { withFileTypes: true }))
    if (entry.isFile() && SOURCE.test(entry.name) && !SKIP_FILE.test(entry.name))
      files.push(path.join(PROJECT_ROOT, entry.name));
  return files;
}
