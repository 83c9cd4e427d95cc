/**
 * A test file's own upload folder: a fresh temporary UPLOAD_DIR (and any other settings given)
 * for the file's tests, emptied before each test (ids restart with every test's fresh database,
 * so keys would repeat), and everything undone after the file.
 *
 *   const uploads = withUploadDir("masthead-files-", { FILE_UPLOAD_MAX_BYTES: "8192" });
 *   … path.join(uploads.dir, …)
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach } from "vitest";

import { resetEnvCache } from "@/env.js";

export function withUploadDir(prefix: string, settings: Record<string, string> = {}): { readonly dir: string } {
  const state = { dir: "" };
  beforeAll(async () => {
    state.dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    Object.assign(process.env, { UPLOAD_DIR: state.dir, ...settings });
    resetEnvCache();
  });
  afterAll(async () => {
    for (const name of ["UPLOAD_DIR", ...Object.keys(settings)]) delete process.env[name];
    resetEnvCache();
    await fs.rm(state.dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const entry of await fs.readdir(state.dir))
      await fs.rm(path.join(state.dir, entry), { recursive: true, force: true });
  });
  return state;
}
