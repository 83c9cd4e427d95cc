import { describe, expect, it } from "vitest";

import { ZCreateWebhookEndpointInput, ZUpdateWebhookEndpointInput } from "./events.schema";

const create = (url: string) =>
  ZCreateWebhookEndpointInput.safeParse({ kind: "CONTENT", url, events: ["story-publish"] });

/** URLs the parser would request somewhere else than shown, or that are no http(s) URL without credentials. */
const REFUSED = [
  "http://example.org/hook\r\nX-Injected: 1",
  "http://example.org/ho\nok",
  "http://example.org/ho\tok",
  "http://exa\tmple.org/hook",
  "\thttp://example.org/hook",
  " http://example.org/hook",
  "http://example.org/hook ",
  "http://example.org/a b",
  "http://example.org/\u0000",
  "http://example.org/\u007f",
  "http://example.org/\u0085",
  "http://example.org/\u00a0",
  "http://example.org/\u200b",
  "http://example.org/\u202e",
  "http://example.org/\u2028",
  "http://user:pass@example.org/hook",
  "http://user@example.org/hook",
  "http://:pass@example.org/hook",
  "https://news.example@evil.example/",
  "javascript:alert(1)",
  "data:text/plain,hi",
  "file:///etc/passwd",
  "ftp://example.org/x",
  "gopher://example.org/",
  "//example.org/hook",
  "/hook",
  "example.org/hook",
  "",
  `https://example.org/${"a".repeat(236)}`,
  // 255 characters as typed, longer once the parser percent-encodes it
  `https://example.org/${"é".repeat(120)}`,
];

describe("webhook endpoint URL", () => {
  it("refuses control characters, whitespace, credentials, other schemes and relative URLs, on field url", () => {
    const accepted = REFUSED.filter((url) => {
      const result = create(url);
      return result.success || !result.error.issues.some((issue) => issue.path.join(".") === "url");
    });
    expect(accepted).toEqual([]);
    expect(
      ZUpdateWebhookEndpointInput.safeParse({ id: crypto.randomUUID(), url: "http://a.example/\r\n" }).success,
    ).toBe(false);
  });

  it("is stored exactly as it will be requested: the parser's normalised form", () => {
    const cases: [string, string][] = [
      ["HTTPS://Hooks.Example.ORG", "https://hooks.example.org/"],
      ["https://hooks.example.org:443/a/../b?x=1#frag", "https://hooks.example.org/b?x=1#frag"],
      ["http://bücher.example/hook", "http://xn--bcher-kva.example/hook"],
      ["https://hooks.example.org/p%41th?q=\u00e9", "https://hooks.example.org/p%41th?q=%C3%A9"],
    ];
    for (const [input, stored] of cases) expect(create(input)).toMatchObject({ success: true, data: { url: stored } });
    // The 255-character limit stays.
    expect(create(`https://example.org/${"a".repeat(235)}`).success).toBe(true);
  });
});
