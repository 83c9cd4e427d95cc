import { describe, expect, it } from "vitest";

import { safeCallbackUrl } from "./safe-callback-url";

describe("safeCallbackUrl", () => {
  it("keeps dashboard paths with their query", () => {
    expect(safeCallbackUrl("/admin")).toBe("/admin");
    expect(safeCallbackUrl("/admin/audit-log")).toBe("/admin/audit-log");
    expect(safeCallbackUrl("/admin/content/stories?q=x#top")).toBe("/admin/content/stories?q=x#top");
  });

  it("falls back to the overview for anything else", () => {
    for (const bad of [
      undefined,
      null,
      "",
      "https://evil.example/admin",
      "//evil.example/admin",
      "/\\evil.example",
      "/api/trpc",
      "/administrator",
      "/admin/sign-in",
      "javascript:alert(1)",
    ]) {
      expect(safeCallbackUrl(bad)).toBe("/admin");
    }
  });
});
