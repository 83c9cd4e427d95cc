import { describe, expect, it } from "vitest";

import { hasAnyRole } from "./roles";

describe("hasAnyRole", () => {
  it("lets an owner through every check", () => {
    expect(hasAnyRole(["OWNER"], ["EDITOR"])).toBe(true);
    expect(hasAnyRole(["OWNER"], ["MODERATOR", "REVENUE"])).toBe(true);
    expect(hasAnyRole(["OWNER"])).toBe(true);
  });

  it("needs one of the required roles otherwise", () => {
    expect(hasAnyRole(["MODERATOR"], ["OWNER"])).toBe(false);
    expect(hasAnyRole(["MODERATOR"], ["EDITOR"])).toBe(false);
    expect(hasAnyRole(["MODERATOR"], ["EDITOR", "MODERATOR"])).toBe(true);
    expect(hasAnyRole(["EDITOR", "REVENUE"], ["REVENUE"])).toBe(true);
  });

  it("treats no required roles as any admin, and no roles as nothing but that", () => {
    expect(hasAnyRole(["REVENUE"], [])).toBe(true);
    expect(hasAnyRole([], undefined)).toBe(true);
    expect(hasAnyRole([], ["EDITOR"])).toBe(false);
  });
});
