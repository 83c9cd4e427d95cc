// ESLint flat config: Next's core-web-vitals rules, typescript-eslint with type information, and the
// layering rules of docs/architecture.md.
import nextVitals from "eslint-config-next/core-web-vitals";
import tseslint from "typescript-eslint";

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
  // server/ is domain logic: no HTTP framework, no UI.
  {
    files: ["server/**"],
    ignores: ["server/http/**", "server/trpc/**", "server/auth/next-auth.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/app/*", "@/components/*", "../../app/*", "../../components/*"],
              message: "server/ must not import app/ or components/.",
            },
            { group: ["next/*", "next"], message: "Domain code stays free of Next.js; put HTTP in server/http." },
            { group: ["@trpc/*"], message: "Services must not import tRPC; routers live in server/trpc." },
          ],
        },
      ],
    },
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
              ],
              message: "Components import only *.schema.ts and tRPC types from server/.",
            },
          ],
        },
      ],
    },
  },
);
