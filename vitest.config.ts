// Unit tests: pure logic, no database, no network. Files *.test.ts next to the code.
import path from "node:path";

import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      "server-only": path.resolve(import.meta.dirname, "server/testing/server-only-stub.ts"),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["**/*.int.test.ts", "node_modules/**", ".next/**", "e2e/**"],
    environment: "node",
    // npm test runs these beside the browser tests under `nice` (scripts/test-all.ts): on two busy
    // cores a test that reads every source file (import-cycles) or fuzzes a parser took past the
    // default 5 s while its assertions held.
    testTimeout: 30_000,
  },
});
