/** The one rule for stored URLs (web-url.ts), and the claims' form of it. */
import { describe, expect, it } from "vitest";

import { checkWebUrl, webUrlOrNull } from "./web-url";

describe("checkWebUrl", () => {
  it("keeps absolute http(s) URLs in their normalised form and says why it refuses the rest", () => {
    expect(checkWebUrl("HTTPS://News.Example.com/a?b=1")).toEqual({ ok: true, href: "https://news.example.com/a?b=1" });
    expect(checkWebUrl("javascript:alert(1)")).toMatchObject({ ok: false, issue: /absolute http/ });
    expect(checkWebUrl("//evil.example/x")).toMatchObject({ ok: false });
    expect(checkWebUrl("https://news.example@evil.example/")).toMatchObject({ ok: false, issue: /user name/ });
    expect(checkWebUrl("https://a.example/x\r\ny")).toMatchObject({ ok: false, issue: /control/ });
    expect(checkWebUrl("mailto:a@b.example")).toMatchObject({ ok: false });
    expect(checkWebUrl("mailto:a@b.example", { mailto: true })).toMatchObject({ ok: true });
  });
});

describe("webUrlOrNull", () => {
  it("takes a claim's URL only when it is one Masthead stores; anything else is null, never an error", () => {
    expect(webUrlOrNull("https://cdn.example.com/a.png")).toBe("https://cdn.example.com/a.png");
    for (const bad of ["javascript:alert(1)", "data:image/png;base64,AAAA", "vbscript:x", "/relative.png", ""]) {
      expect(webUrlOrNull(bad)).toBeNull();
    }
    expect(webUrlOrNull(null)).toBeNull();
    expect(webUrlOrNull(undefined)).toBeNull();
    expect(webUrlOrNull(`https://cdn.example.com/${"a".repeat(60)}`, { maxLength: 50 })).toBeNull();
  });
});
