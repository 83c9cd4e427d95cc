/**
 * npm run docs:env – rewrite README.md's "Configuration" list from env.js (ENV_DOCS and the
 * schema's defaults); scripts/docs-env.test.ts fails when the README's list is out of date.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import fs from "node:fs";
import path from "node:path";

import { withEnvTable } from "./lib/env-table";

const readme = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../README.md");
fs.writeFileSync(readme, withEnvTable(fs.readFileSync(readme, "utf8")));
console.log("Wrote README.md's variable list from env.js.");
