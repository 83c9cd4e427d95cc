import fs from "node:fs";

import { describe, expect, it } from "vitest";

import {
  bundleSdk,
  GENERATED_FILE,
  generatedSource,
  gzipSize,
  SDK_GZIP_BUDGET_BYTES,
} from "../../scripts/lib/sdk-bundle";

describe("the served AccessType script", () => {
  it("is built from the current sources (run `npm run sdk:build`) and stays under its size budget", async () => {
    const bundle = await bundleSdk();
    expect(fs.readFileSync(GENERATED_FILE, "utf8"), "sdk/accesstype/bundle.generated.ts is stale").toBe(
      generatedSource(bundle),
    );
    const size = gzipSize(bundle.js);
    console.log(`accesstype.js: ${bundle.js.length} bytes, ${size} bytes gzipped`);
    expect(size).toBeLessThan(SDK_GZIP_BUDGET_BYTES);
  });

  it("defines only AccessType and the accesstypeq queue on window", async () => {
    const { js } = await bundleSdk();
    const assigned = [...js.matchAll(/window\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]);
    expect(new Set(assigned)).toEqual(new Set(["AccessType", "accesstypeq"]));
    // An IIFE: nothing else leaks as a top-level var.
    expect(js.split("\n")[1]).toMatch(/^("use strict";)?\(\(\)=>\{[\s\S]*\}\)\(\);\s*$/);
  });
});
