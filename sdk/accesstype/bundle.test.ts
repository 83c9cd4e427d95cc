/**
 * The served AccessType script, built from the sources. Its size budget and the freshness of
 * sdk/accesstype/bundle.generated.ts are checked with the other generated modules'
 * (scripts/build-bundles.test.ts).
 */
import { describe, expect, it } from "vitest";

import { buildSdk } from "../../scripts/build-bundles.mjs";

describe("the served AccessType script", () => {
  it("defines only AccessType and the accesstypeq queue on window", async () => {
    const js = (await buildSdk()).scripts.find((s) => s.name === "accesstype.js")!.text;
    const assigned = [...js.matchAll(/window\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]);
    expect(new Set(assigned)).toEqual(new Set(["AccessType", "accesstypeq"]));
    // An IIFE: nothing else leaks as a top-level var.
    expect(js.split("\n")[1]).toMatch(/^("use strict";)?\(\(\)=>\{[\s\S]*\}\)\(\);\s*$/);
  });
});
