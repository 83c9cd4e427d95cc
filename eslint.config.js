// ESLint flat config: Next's core-web-vitals rules, typescript-eslint with type information, and the
// layering rules of docs/architecture.md.
import nextVitals from "eslint-config-next/core-web-vitals";
import tseslint from "typescript-eslint";

import plainObjectKeys from "./scripts/lint/plain-object-keys.mjs";
import { BASE, CACHE, COMPOSITION, DOMAIN, TEST_SUPPORT, TRANSPORTS } from "./scripts/lint/server-layers.mjs";

// ─── The layers of server/ ─────────────────────────────────────────────────────────────────────
// Bottom first; a file imports its own layer and the ones below it, never one above:
//   1. base: env.js, server/db, server/log.ts, server/errors.ts, server/lifecycle.ts (process stop
//      hooks), server/validation.ts, server/web-url.ts, server/time, server/security,
//      server/generated (Prisma), server/json-text.ts, server/own-keys.ts, and the shared schemas
//      server/*.schema.ts;
//   2. server/cache: the in-process caches and what empties them;
//   3. domain: every other folder of server/, in an order of its own, bottom first: pure helpers
//      (time-zone, text, csv, pdf, rate-limit, storage…), jobs (the engine), mail (the outbox),
//      audit, auth, webhooks, i18n, publishing, members, subscriptions, accounts, privacy,
//      engagement, newsletters, imports, oauth, seed, demo, widgets, health. An area imports only
//      those before it (DOMAIN_ORDER in scripts/lint/server-layers.mjs, checked by
//      scripts/domain-layers.test.ts);
//   4. the top of server/: server/background (the list of every area's jobs, handed to the job
//      engine, and what starts the engine in a process) and the transports: server/http (REST
//      routes), server/trpc (the dashboard's API), server/docs (the REST reference, read from the
//      routes);
//   5. app/, inngest/, instrumentation.ts, scripts/: the entry points. components/ imports only
//      *.schema.ts and tRPC types from server/ (its own rule below).
// server/testing is test support: only tests import it. Tests (*.test.ts, *.int.test.ts) and
// server/testing may import any layer. A new folder of server/ is domain until listed otherwise
// (and the domain-layers test asks where in DOMAIN_ORDER it goes). The lists:
// scripts/lint/server-layers.mjs.
const escape = (name) => name.replace(/[.]/g, "\\.");
/** An import of one of server/'s `names`, by "@/server/…" or by a relative path. */
const serverImport = (names, message) => ({
  regex: `^(?:@/server/|(?:\\.{1,2}/)+)(?:${names.map(escape).join("|")})(?:/|$)`,
  message,
});
const ENTRY_POINTS = {
  regex: "^(?:@/|(?:\\.\\./)+)(?:app|components|inngest)(?:/|$)",
  message: "server/ must not import app/, components/ or inngest/ (the entry points sit on top of it).",
};
const NO_NEXT = { group: ["next/*", "next"], message: "Domain code stays free of Next.js; put HTTP in server/http." };
const NO_TRPC = { group: ["@trpc/*"], message: "Services must not import tRPC; routers live in server/trpc." };
const NO_TEST_SUPPORT = serverImport(TEST_SUPPORT, "server/testing is test support: only tests import it.");
const UP_TO_TRANSPORTS = serverImport(
  [...COMPOSITION, ...TRANSPORTS],
  "server/background, server/http, server/trpc and server/docs sit on top of the domain: move what both need below them.",
);
const COMPOSITION_TO_TRANSPORTS = serverImport(TRANSPORTS, "server/background imports no transport.");
const UP_TO_DOMAIN = serverImport(DOMAIN, "A base module (db, log, errors…) or the cache imports no domain module.");
const UP_TO_CACHE = serverImport(CACHE, "The base layer (db, log, errors…) sits below server/cache.");
const layerRule = (...patterns) => ({ "no-restricted-imports": ["error", { patterns }] });
const TESTS = ["**/*.test.ts", "**/*.test.tsx", "server/testing/**"];
const inServer = (names) => names.flatMap((name) => [`server/${name}/**`, `server/${name}.ts`]);

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "server/generated/**",
      // Bundles written by scripts/build-bundles.mjs, checked by its test.
      "**/*.generated.ts",
      ".data/**",
      ".data-*/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  ...nextVitals,
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/require-await": "off",
    },
  },
  // Text (a comment's word, a header, a query parameter) is never a key into a plain object: a Map,
  // a null-prototype object or an own-property check (server/own-keys.ts). Tests choose their keys.
  {
    files: [
      "server/**/*.ts",
      "app/**/*.ts",
      "app/**/*.tsx",
      "components/**/*.ts",
      "components/**/*.tsx",
      "inngest/**/*.ts",
      "scripts/import/**/*.ts",
      "widgets/src/**/*.ts",
    ],
    ignores: TESTS,
    plugins: { masthead: plainObjectKeys },
    rules: { "masthead/no-string-key-on-plain-object": "error" },
  },
  // Configuration is read in one place (env.js).
  {
    files: ["app/**", "components/**", "server/**", "inngest/**"],
    ignores: ["**/*.test.ts", "server/testing/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through getEnv() from env.js." },
      ],
    },
  },
  // Logs go through the one logger (server/log.ts: JSON lines, secrets redacted), never console.
  {
    files: ["app/**", "components/**", "server/**", "inngest/**", "proxy.ts", "instrumentation.ts"],
    ignores: ["server/log.ts", "**/*.test.ts", "server/testing/**", "server/seed/**"],
    rules: { "no-console": "error" },
  },
  // One transaction path (server/db/transaction.ts): no $transaction anywhere else.
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["server/db/transaction.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='$transaction']",
          message:
            "Use withTransaction from server/db/transaction.ts (it joins a caller's transaction and runs after-commit hooks).",
        },
      ],
    },
  },
  // Functions a reader can hold: no function over 150 lines and no file over 500 (blank lines and
  // comments not counted). One that stays longer says why in an eslint-disable comment at its top.
  // Generated files (server/generated, *.generated.ts) are ignored above.
  {
    files: ["{app,components,server,scripts,inngest,sdk,widgets,e2e,i18n}/**/*.{ts,tsx,js,mjs}"],
    rules: {
      "max-lines-per-function": ["error", { max: 150, skipBlankLines: true, skipComments: true }],
      "max-lines": ["error", { max: 500, skipBlankLines: true, skipComments: true }],
    },
  },
  // server/ in layers (the list at the top of this file): no import runs up them.
  {
    files: inServer(BASE),
    ignores: TESTS,
    rules: layerRule(ENTRY_POINTS, NO_NEXT, NO_TRPC, NO_TEST_SUPPORT, UP_TO_TRANSPORTS, UP_TO_DOMAIN, UP_TO_CACHE),
  },
  {
    files: inServer(CACHE),
    ignores: TESTS,
    rules: layerRule(ENTRY_POINTS, NO_NEXT, NO_TRPC, NO_TEST_SUPPORT, UP_TO_TRANSPORTS, UP_TO_DOMAIN),
  },
  // The domain: no HTTP framework, no UI (Auth.js's Next.js binding is the one domain file on Next).
  {
    files: inServer(DOMAIN),
    ignores: [...TESTS, "server/auth/next-auth.ts"],
    rules: layerRule(ENTRY_POINTS, NO_NEXT, NO_TRPC, NO_TEST_SUPPORT, UP_TO_TRANSPORTS),
  },
  {
    files: ["server/auth/next-auth.ts"],
    rules: layerRule(ENTRY_POINTS, NO_TRPC, NO_TEST_SUPPORT, UP_TO_TRANSPORTS),
  },
  {
    files: inServer(COMPOSITION),
    ignores: TESTS,
    rules: layerRule(ENTRY_POINTS, NO_NEXT, NO_TRPC, NO_TEST_SUPPORT, COMPOSITION_TO_TRANSPORTS),
  },
  {
    files: inServer(TRANSPORTS),
    ignores: TESTS,
    rules: layerRule(ENTRY_POINTS, NO_TEST_SUPPORT),
  },
  {
    files: ["inngest/**"],
    ignores: TESTS,
    rules: layerRule({
      regex: "^(?:@/|(?:\\.\\./)+)(?:app|components)(?:/|$)",
      message: "inngest/ runs server/ code; it imports nothing from app/ or components/.",
    }),
  },
  {
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              // gitignore semantics: a file cannot be re-included once its folder is excluded, so
              // exclude everything, re-include the folders ("**/"), then re-include the allowed files.
              group: [
                "@/server/**",
                "!@/server/**/",
                "!@/server/**/*.schema",
                "!@/server/trpc/root",
                "!@/server/errors",
                "!@/server/own-keys",
                // Pure text helpers (slugs, grapheme-safe cuts) that import nothing but each other.
                "!@/server/text/*",
              ],
              message:
                "Components import only *.schema.ts, server/errors, server/own-keys, server/text and tRPC types from server/.",
            },
          ],
        },
      ],
    },
  },
);
