import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";
import type { z } from "zod";

import { ENV_DOCS, envSchema } from "../env.js";
import { envTable, withEnvTable } from "./lib/env-table";

const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");

describe("README.md's variable list", () => {
  it("describes every variable env.js reads, and no other", () => {
    const shape = (envSchema.in as z.ZodObject).shape;
    expect(Object.keys(ENV_DOCS).sort()).toEqual(Object.keys(shape).sort());
  });

  it("is the list env.js writes (npm run docs:env)", () => {
    expect(withEnvTable(readme)).toBe(readme);
  });

  it("shows the schema's default where env.js names none, and unset where there is none", () => {
    const rows = new Map(
      envTable()
        .split("\n")
        .map((item) => /^- (`[A-Z0-9_]+`) \(default: (.*?)\): /.exec(item))
        .map((match) => [match![1]!, match![2]!]),
    );
    expect(rows.get("`PORT`")).toBe("`3000`");
    expect(rows.get("`SHUTDOWN_DRAIN_MS`")).toBe("`5000`");
    expect(rows.get("`SMTP_URL`")).toBe("unset");
    expect(rows.get("`APP_URL`")).toBe("`http://localhost:$PORT`");
  });
});
