/**
 * The served AccessType script, built from the sources. Its size budget and the freshness of
 * sdk/accesstype/bundle.generated.ts are checked with the other generated modules'
 * (scripts/build-bundles.test.ts).
 */
import { describe, expect, it } from "vitest";

import { messagesOf } from "@/i18n/messages";

import { buildSdk } from "../../scripts/build-bundles.mjs";

describe("the served AccessType script", () => {
  it("defines only AccessType and the accesstypeq queue on window", async () => {
    const js = (await buildSdk()).scripts.find((s) => s.name === "accesstype.js")!.text;
    const assigned = [...js.matchAll(/window\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)].map((m) => m[1]);
    expect(new Set(assigned)).toEqual(new Set(["AccessType", "accesstypeq"]));
    // An IIFE after the banner line: nothing else leaks as a top-level var.
    expect(js.slice(js.indexOf("\n") + 1)).toMatch(/^("use strict";)?\(\(\)=>\{[\s\S]*\}\)\(\);\s*$/);
  });

  it("formats messages without intl-messageformat's parser, English baked in", async () => {
    const js = (await buildSdk()).scripts.find((s) => s.name === "accesstype.js")!.text;
    // The parser's own error kinds are not in the script; the stub that stands in for it is.
    for (const parserOnly of ["EXPECT_ARGUMENT_CLOSING_BRACE", "UNCLOSED_TAG", "INVALID_PLURAL_ARGUMENT_SELECTOR"])
      expect(js).not.toContain(parserOnly);
    expect(js).toContain("uncompiled message");
    for (const [key, message] of messagesOf("paywall", "en")) {
      if (key.startsWith("sdk.")) expect(js).toContain(JSON.stringify(key));
      if (key.startsWith("sdk.") && !message.includes("{")) expect(js).toContain(JSON.stringify(message));
      if (!key.startsWith("sdk.")) expect(js).not.toContain(JSON.stringify(key));
    }
  });
});
