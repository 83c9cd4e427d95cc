import { spawnSync } from "node:child_process";

import { describe, expect, it } from "vitest";

import { parseEnv } from "../../env.js";
import { serverNodeFlags } from "./server-flags";

describe("the server's Node.js flags (npm start)", () => {
  it("keeps the heap within HEAP_GROWTH_PERCENT of its live data: 100 unless set, nothing with 0", () => {
    expect(serverNodeFlags(parseEnv({}))).toEqual(["--heap-growing-percent=100"]);
    expect(serverNodeFlags(parseEnv({ HEAP_GROWTH_PERCENT: "30" }))).toEqual(["--heap-growing-percent=30"]);
    expect(serverNodeFlags(parseEnv({ HEAP_GROWTH_PERCENT: "0" }))).toEqual([]);
    for (const bad of ["-1", "401", "1.5", "lots"]) expect(() => parseEnv({ HEAP_GROWTH_PERCENT: bad })).toThrow();
  });

  it("are flags this Node.js takes on its command line", () => {
    const run = spawnSync(process.execPath, [...serverNodeFlags(parseEnv({})), "-e", "process.exit(0)"]);
    expect(run.stderr.toString()).toBe("");
    expect(run.status).toBe(0);
  });
});
