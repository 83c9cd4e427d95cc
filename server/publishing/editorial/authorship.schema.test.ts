import { describe, expect, it } from "vitest";

import { fillPreviewUrl, ZEditorialRulesInput, ZPreviewUrlTemplate } from "./authorship.schema";

describe("the preview URL template", () => {
  it("fills {token} and {slug}, URL-encoded, everywhere they appear", () => {
    expect(
      fillPreviewUrl("https://news.example.com/preview/{slug}?token={token}&again={token}", {
        token: "a.b/c",
        slug: "city/tram line",
      }),
    ).toBe("https://news.example.com/preview/city%2Ftram%20line?token=a.b%2Fc&again=a.b%2Fc");
  });

  it("takes http(s) with {token}, private hosts included, and refuses the rest", () => {
    for (const ok of ["https://news.example.com/p?t={token}", "http://10.0.0.5:3000/preview/{token}/{slug}"])
      expect(ZPreviewUrlTemplate.safeParse(ok).success).toBe(true);
    for (const bad of [
      "https://news.example.com/preview",
      "javascript:alert(1)//{token}",
      "ftp://x.test/{token}",
      "https://user:pass@x.test/{token}",
      "/preview/{token}",
      `https://x.test/${"a".repeat(500)}{token}`,
    ])
      expect(ZPreviewUrlTemplate.safeParse(bad).success).toBe(false);
  });

  it("empties to null and changes only what is given", () => {
    expect(ZEditorialRulesInput.parse({ previewUrl: "" })).toEqual({ previewUrl: null });
    expect(ZEditorialRulesInput.parse({ noSelfApproval: true })).toEqual({ noSelfApproval: true });
    expect(ZEditorialRulesInput.safeParse({ other: 1 }).success).toBe(false);
  });
});
