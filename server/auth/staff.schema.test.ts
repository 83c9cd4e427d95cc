import { describe, expect, it } from "vitest";

import { ZCreateAdminUserInput, ZSetAdminRolesInput } from "./staff.schema";

const USER = "0b6f1c1e-8a51-4c1b-9a43-2f4f3d8e7a10";
const NEW = { name: "Cora", email: "cora@example.test" };

describe("dashboard roles that contradict each other", () => {
  it.each([
    [["CONTRIBUTOR", "EDITOR"]],
    [["EDITOR", "CONTRIBUTOR"]],
    [["CONTRIBUTOR", "OWNER"]],
    [["OWNER", "EDITOR", "CONTRIBUTOR", "MODERATOR"]],
  ])("refuses %j when adding a user and when changing roles", (roles) => {
    const created = ZCreateAdminUserInput.safeParse({ ...NEW, roles });
    const changed = ZSetAdminRolesInput.safeParse({ userId: USER, roles });
    for (const result of [created, changed]) {
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["roles"]);
      expect(result.error?.issues[0]?.message).toMatch(/Contributor cannot be combined with Editor or Owner/);
    }
  });

  it.each([[["CONTRIBUTOR"]], [["CONTRIBUTOR", "MODERATOR", "REVENUE"]], [["EDITOR", "OWNER"]], [["MODERATOR"]]])(
    "accepts %j",
    (roles) => {
      expect(ZCreateAdminUserInput.safeParse({ ...NEW, roles }).success).toBe(true);
      expect(ZSetAdminRolesInput.safeParse({ userId: USER, roles }).success).toBe(true);
    },
  );

  it("still asks for at least one role", () => {
    expect(ZCreateAdminUserInput.safeParse({ ...NEW, roles: [] }).error?.issues[0]?.message).toBe(
      "give at least one role",
    );
  });
});
