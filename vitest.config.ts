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
  },
});
