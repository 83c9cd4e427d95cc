import { createHmac } from "node:crypto";

import { describe, expect, it } from "vitest";

import { base64urlMacMatches } from "./signed-token";

const mac = createHmac("sha256", "k").update("payload").digest();
const spelt = mac.toString("base64url");

describe("base64urlMacMatches", () => {
  it("takes the MAC as Masthead writes it", () => {
    expect(base64urlMacMatches(spelt, mac)).toBe(true);
  });

  it("refuses another MAC, a shorter one, and a second spelling of the same bytes", () => {
    const flipped = `${spelt.slice(0, -2)}${spelt.at(-2) === "A" ? "B" : "A"}${spelt.at(-1)}`;
    expect(base64urlMacMatches(flipped, mac)).toBe(false);
    expect(base64urlMacMatches(spelt.slice(0, -4), mac)).toBe(false);
    // The last character carries two unused bits: setting them decodes to the same bytes.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const other = last[last.indexOf(spelt.at(-1)!) + 1]!;
    expect(Buffer.from(`${spelt.slice(0, -1)}${other}`, "base64url").equals(mac)).toBe(true);
    expect(base64urlMacMatches(`${spelt.slice(0, -1)}${other}`, mac)).toBe(false);
    expect(base64urlMacMatches(`${spelt}!`, mac)).toBe(false);
  });
});
