import { spawnSync } from "node:child_process";

import { describe, expect, it } from "vitest";

describe("npm run admin:create", () => {
  it("loads its modules (server code runs under the react-server condition) and prints its usage without --email", () => {
    const run = spawnSync("npm", ["run", "--silent", "admin:create"], {
      encoding: "utf8",
      env: { ...process.env, DATA_DIR: "/nonexistent-admin-create-test", ADMIN_PASSWORD: "" },
      timeout: 60_000,
    });
    expect(run.stderr).toContain("Usage: npm run admin:create -- --email");
    expect(run.status).toBe(2);
  }, 70_000);
});
