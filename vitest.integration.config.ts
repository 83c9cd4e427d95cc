// Integration tests: route handlers, tRPC and services against a real database.
// TEST_DB=pglite (default) or TEST_DB=postgres (TEST_DATABASE_URL, default the local server's
// database `test`, in a schema of its own per run). Files run one at a time, each on a clean database.
import { defineConfig } from "vitest/config";

import unit from "./vitest.config";

export default defineConfig({
  // The same imports as the unit tests ("@/…", the server-only stub).
  resolve: unit.resolve,
  test: {
    include: ["**/*.int.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**"],
    environment: "node",
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["server/testing/global-setup.integration.ts"],
    setupFiles: ["server/testing/setup.integration.ts"],
    // Test receivers (and login providers) listen on 127.0.0.1, which is refused unless an operator allows it.
    // The response cache is off (RESPONSE_CACHE_MB=0): tests write their fixtures straight into the
    // database, past the services whose events purge it. The tests about it turn it on
    // (server/testing/response-cache.ts).
    env: {
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      SOCIAL_LOGIN_ALLOW_PRIVATE_URLS: "true",
      LOG_LEVEL: "silent",
      RESPONSE_CACHE_MB: "0",
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
