// The layers of server/, by the names of its folders and top-level files (a file without its
// extension): eslint.config.js turns them into import rules, scripts/domain-layers.test.ts checks
// the order of the domain's own areas. The top comment of eslint.config.js says what each holds.
import fs from "node:fs";

export const BASE = [
  "db",
  "log",
  "errors",
  "lifecycle",
  "validation",
  "web-url",
  "time",
  "security",
  "generated",
  "cursor-page.schema",
  "params.schema",
  "json-text",
  "own-keys",
];
export const CACHE = ["cache"];
export const COMPOSITION = ["background"];
export const TRANSPORTS = ["http", "trpc", "docs"];
export const TEST_SUPPORT = ["testing"];

/**
 * The domain's areas, bottom first: an area imports those before it, never one after it. Pure
 * helpers first, then the job engine and the mail outbox, who acts and what they did, and the
 * areas each built on those below.
 */
export const DOMAIN_ORDER = [
  "time-zone",
  "dates.schema",
  "text",
  "csv",
  "pdf",
  "seeded-random",
  "rate-limit",
  "storage",
  "metrics",
  "jobs",
  "mail",
  "audit",
  "auth",
  "webhooks",
  "i18n",
  "publishing",
  "members",
  "subscriptions",
  "accounts",
  "privacy",
  "engagement",
  "newsletters",
  "imports",
  "oauth",
  "seed",
  "demo",
  "widgets",
  "health",
];

/** Every domain name: the folders and top-level files of server/ that no other layer lists. */
export const DOMAIN = [
  ...new Set(
    fs
      .readdirSync(new URL("../../server", import.meta.url))
      .filter((name) => !/\.test\.tsx?$/.test(name))
      .map((name) => name.replace(/\.tsx?$/, "")),
  ),
].filter((name) => ![...BASE, ...CACHE, ...COMPOSITION, ...TRANSPORTS, ...TEST_SUPPORT].includes(name));
