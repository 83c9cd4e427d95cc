/**
 * npm run docs:api – regenerate docs/api-reference.md and .json from the route files (--check:
 * exit 1 when they are out of date, writing nothing).
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { collectEndpoints, renderMarkdown } from "../server/docs/api-reference";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const docs = await collectEndpoints(
  path.join(root, "app"),
  (file) => import(pathToFileURL(file).href) as Promise<Record<string, unknown>>,
);
const outputs = {
  [path.join(root, "docs/api-reference.md")]: renderMarkdown(docs),
  [path.join(root, "docs/api-reference.json")]: JSON.stringify(docs, null, 2) + "\n",
};
if (process.argv.includes("--check")) {
  const stale = Object.entries(outputs).filter(
    ([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text,
  );
  if (stale.length) {
    console.error(`Out of date: ${stale.map(([f]) => path.relative(root, f)).join(", ")}. Run npm run docs:api.`);
    process.exit(1);
  }
  console.log("API reference is up to date.");
} else {
  for (const [file, text] of Object.entries(outputs)) fs.writeFileSync(file, text);
  console.log(`Wrote the reference of ${docs.length} endpoint(s).`);
}
process.exit(0);
