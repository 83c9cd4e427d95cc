import { describe, expect, it } from "vitest";

import { safeReturnTo } from "./safe-return-to";

describe("safeReturnTo", () => {
  it("keeps a path on this site, with its query", () => {
    expect(safeReturnTo("/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx.example%2Fcb")).toBe(
      "/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx.example%2Fcb",
    );
    expect(safeReturnTo("/story/1#comments")).toBe("/story/1#comments");
  });

  it.each([
    null,
    "",
    "https://evil.example.com/",
    "//evil.example.com/",
    "/\\evil.example.com",
    "/\t/evil.example.com",
    "javascript:alert(1)",
    "evil.example.com",
    "/member/login?return_to=/x",
    "/member/signup",
    "/member/forgot-password?return_to=/x",
    "/member/reset-password?token=abc",
  ])("sends %j to the reader's account page", (value) => {
    expect(safeReturnTo(value)).toBe("/member/subscriptions");
  });
});
