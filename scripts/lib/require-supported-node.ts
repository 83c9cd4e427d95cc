/**
 * Imported first by every command-line entry point (npm start, npm test, db:*, admin:create…): on a
 * Node.js older than package.json's `engines.node`, stop with one line before anything else loads.
 * Kept free of project imports, so nothing that needs a newer Node runs before the check.
 */
import fs from "node:fs";

import { unsupportedNodeMessage } from "./node-version";

const packageJson = new URL("../../package.json", import.meta.url);
const { engines } = JSON.parse(fs.readFileSync(packageJson, "utf8")) as { engines?: { node?: string } };
const message = engines?.node ? unsupportedNodeMessage(process.versions.node, engines.node) : null;
if (message) {
  console.error(message);
  process.exit(1);
}
