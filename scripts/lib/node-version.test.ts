import fs from "node:fs";

import { describe, expect, it } from "vitest";

import { describeRange, unsupportedNodeMessage } from "./node-version";

const RANGE = "^20.19 || ^22.12 || >=24";

describe("unsupportedNodeMessage", () => {
  it("refuses versions outside the range, with one line naming the range and the version", () => {
    expect(unsupportedNodeMessage("20.1.0", RANGE)).toMatch(
      /^Masthead needs Node\.js 20\.19 or a later 20\.x, 22\.12 or a later 22\.x, or 24 and newer \(this is 20\.1\.0\): .*nodejs\.org/,
    );
    for (const old of ["20.18.3", "20.9.0", "18.20.4", "16.0.0", "v20.18.9", "21.7.0", "22.11.0", "23.5.0"]) {
      expect(unsupportedNodeMessage(old, RANGE), old).not.toBeNull();
    }
    expect(unsupportedNodeMessage("20.19.0", ">=20.19.1")).toMatch(/needs Node\.js 20\.19\.1 and newer/);
  });

  it("accepts each minimum and what follows it, compared as numbers (20.100 > 20.19 > 20.9)", () => {
    for (const ok of ["20.19.0", "20.19.5", "20.20.2", "20.100.0", "22.12.0", "v22.13.1", "24.0.0", "25.1.0-pre"]) {
      expect(unsupportedNodeMessage(ok, RANGE), ok).toBeNull();
    }
  });

  it("never refuses on a range or a version it cannot read", () => {
    expect(unsupportedNodeMessage("20.1.0", "not a range")).toBeNull();
    expect(unsupportedNodeMessage("not a version", RANGE)).toBeNull();
  });

  it("reads package.json's engines.node range, which this Node satisfies", () => {
    const { engines } = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      engines: { node: string };
    };
    expect(engines.node).toBe(RANGE);
    expect(unsupportedNodeMessage(process.versions.node, engines.node)).toBeNull();
  });
});

describe("describeRange", () => {
  it("says a range in words", () => {
    expect(describeRange(">=20.19")).toBe("20.19 and newer");
    expect(describeRange("^22.12 || >=24")).toBe("22.12 or a later 22.x, or 24 and newer");
  });
});
