/**
 * npm run admin:create -- --email you@paper.com --name "Your Name" [--account-name "The Gazette"]
 * Creates the first publisher account (printing its new keys once) and an owner. The password is
 * read from ADMIN_PASSWORD, or asked for on the terminal. Use it in production, where the demo seed
 * is refused.
 */
// First: on a Node.js older than package.json's engines.node, stop with one line before anything loads.
import "./lib/require-supported-node";

import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";

import { ZodError } from "zod";

import { getEnv } from "../env.js";
import { createOwner } from "../server/accounts/bootstrap";
import { openDatabase } from "../server/db/client";
import { databaseConfigFromEnv } from "../server/db/config";
import { applyMigrations } from "../server/db/migrate";
import { AppError } from "../server/errors";
import { exitOnEnvError, exitOnKnownError } from "./lib/cli";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    name: { type: "string" },
    "account-name": { type: "string" },
    "account-slug": { type: "string" },
  },
});
if (!values.email || !values.name) {
  console.error(
    'Usage: npm run admin:create -- --email you@paper.com --name "Your Name" [--account-name "The Gazette"]',
  );
  process.exit(2);
}
const env = exitOnEnvError(() => getEnv());
let password = process.env.ADMIN_PASSWORD;
if (!password) {
  if (!process.stdin.isTTY) {
    console.error("Set ADMIN_PASSWORD (no terminal to ask on).");
    process.exit(2);
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question("Password (12 characters or more): ");
  rl.close();
}

const database = await openDatabase(databaseConfigFromEnv(env)).catch(exitOnKnownError);
try {
  await applyMigrations(database.adapter);
  const created = await createOwner(database.prisma, {
    email: values.email,
    name: values.name,
    password,
    accountName: values["account-name"],
    accountSlug: values["account-slug"],
  });
  console.log(`Created owner ${values.email} on account ${created.accountId}.`);
  if (created.newAccount) {
    console.log("New account keys (shown once; store them now):");
    console.log(`  client key (?key=)     ${created.newAccount.clientKey}`);
    console.log(`  server key (X-SUBAUTH) ${created.newAccount.serverKey}`);
    console.log(`  JWT shared key (HS256) ${created.newAccount.jwtSecret}`);
  }
} catch (error) {
  if (error instanceof ZodError) {
    console.error(error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
    process.exit(1);
  }
  if (error instanceof AppError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
} finally {
  await database.close();
}
