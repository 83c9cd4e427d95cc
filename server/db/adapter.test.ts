import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { DatabaseInUseError, openAdapter } from "./adapter";

describe("the embedded database's lock", () => {
  it("refuses a second process while one holds the folder, and takes over a stale lock", async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mh-lock-")), "pglite");
    // Another live process owns the lock.
    // It lives until killed below (however long opening takes on a loaded machine).
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"]);
    const exited = new Promise((resolve) => other.once("exit", resolve));
    try {
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      fs.writeFileSync(`${dir}.lock`, String(other.pid));
      await expect(openAdapter({ kind: "pglite", dir })).rejects.toBeInstanceOf(DatabaseInUseError);
    } finally {
      other.kill("SIGKILL");
    }
    await exited;
    // Its process is gone: the lock is stale and taken over; closing releases it.
    const adapter = await openAdapter({ kind: "pglite", dir });
    expect(fs.readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await adapter.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  }, 60_000);
});
