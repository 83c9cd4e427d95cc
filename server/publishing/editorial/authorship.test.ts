import { describe, expect, it } from "vitest";

import { staffActor, systemActor } from "../../auth/actor";
import type { AdminRole } from "../../auth/roles";
import { authorshipRefusal, isContributorOnly, type StoryGate } from "./authorship";

const WRITER = "00000000-0000-4000-8000-000000000001";
const OTHER = "00000000-0000-4000-8000-000000000002";
const as = (roles: AdminRole[], id = WRITER) => staffActor({ id, accountId: 1, roles });
const refusal = (roles: AdminRole[], gate: StoryGate, status: "DRAFT" | "SUBMITTED", noSelfApproval = false) =>
  authorshipRefusal({ actor: as(roles), gate, story: { ownerId: WRITER, status }, noSelfApproval });

describe("authorshipRefusal", () => {
  it("lets a contributor edit, delete and submit their own draft, and nothing else", () => {
    for (const gate of ["edit", "delete", "submit"] as const)
      expect(refusal(["CONTRIBUTOR"], gate, "DRAFT")).toBeNull();
    for (const gate of ["approve", "reject", "publish", "retract", "back-to-draft", "schedule", "unschedule"] as const)
      expect(refusal(["CONTRIBUTOR"], gate, "DRAFT")).toMatch(/an editor approves/);
    expect(refusal(["CONTRIBUTOR"], "edit", "SUBMITTED")).toMatch(/only while they are drafts/);
    expect(
      authorshipRefusal({
        actor: as(["CONTRIBUTOR"], OTHER),
        gate: "edit",
        story: { ownerId: WRITER, status: "DRAFT" },
        noSelfApproval: false,
      }),
    ).toMatch(/only stories they wrote/);
  });

  it("treats a contributor who is also an editor as an editor", () => {
    expect(isContributorOnly(as(["CONTRIBUTOR", "EDITOR"]))).toBe(false);
    expect(refusal(["CONTRIBUTOR", "EDITOR"], "publish", "DRAFT")).toBeNull();
  });

  it("refuses making one's own story public when the account says so, owners included, never the scheduler", () => {
    for (const roles of [["EDITOR"], ["OWNER"]] as AdminRole[][]) {
      for (const gate of ["approve", "publish", "schedule"] as const)
        expect(refusal(roles, gate, "DRAFT", true)).toMatch(/a story they wrote/);
      for (const gate of ["edit", "reject", "retract", "back-to-draft", "unschedule"] as const)
        expect(refusal(roles, gate, "DRAFT", true)).toBeNull();
      expect(refusal(roles, "approve", "DRAFT", false)).toBeNull();
    }
    expect(
      authorshipRefusal({
        actor: systemActor(1, "scheduler"),
        gate: "publish",
        story: { ownerId: WRITER, status: "DRAFT" },
        noSelfApproval: true,
      }),
    ).toBeNull();
  });
});
