import { describe, expect, it } from "vitest";

import { afterEdit, decideAction, type CommentFlags } from "./decisions";

const held: CommentFlags = { moderationState: "UNDECIDED", isPublished: false, isSpam: false, deleted: false };

describe("decideAction", () => {
  it("publishes on approve, clearing the scorer's spam", () => {
    expect(decideAction({ ...held, isSpam: true }, "approve", false)).toEqual({
      kind: "change",
      data: { moderationState: "APPROVED", isPublished: true, isSpam: false },
    });
  });

  it("is a no-op when the comment is already so, and deleting a deleted comment is one too", () => {
    expect(decideAction({ ...held, moderationState: "APPROVED", isPublished: true }, "approve", false).kind).toBe(
      "noop",
    );
    expect(decideAction({ ...held, moderationState: "REJECTED" }, "reject", false).kind).toBe("noop");
    expect(decideAction({ ...held, moderationState: "SPAM", isSpam: true }, "spam", false).kind).toBe("noop");
    expect(decideAction(held, "not_spam", false).kind).toBe("noop");
    expect(decideAction({ ...held, deleted: true }, "delete", false).kind).toBe("noop");
  });

  it("refuses to undo another decision without override, and anything but delete on a deleted comment", () => {
    const approved = { ...held, moderationState: "APPROVED" as const, isPublished: true };
    expect(decideAction(approved, "reject", false)).toMatchObject({ kind: "conflict" });
    expect(decideAction(approved, "reject", true)).toEqual({
      kind: "change",
      data: { moderationState: "REJECTED", isPublished: false },
    });
    expect(decideAction({ ...held, moderationState: "SPAM", isSpam: true }, "not_spam", false)).toMatchObject({
      kind: "conflict",
    });
    expect(decideAction({ ...held, moderationState: "SPAM", isSpam: true }, "not_spam", true)).toEqual({
      kind: "change",
      data: { isSpam: false, moderationState: "UNDECIDED" },
    });
    expect(decideAction({ ...held, deleted: true }, "approve", true)).toMatchObject({ kind: "conflict" });
    expect(decideAction(approved, "delete", false)).toEqual({ kind: "change", data: { delete: true } });
  });

  it("marks spam as unpublished spam", () => {
    expect(decideAction({ ...held, isPublished: true }, "spam", false)).toEqual({
      kind: "change",
      data: { moderationState: "SPAM", isPublished: false, isSpam: true },
    });
  });
});

describe("afterEdit", () => {
  it("never publishes a rejected or spam comment", () => {
    expect(afterEdit("REJECTED", { isPublished: true, isSpam: false })).toEqual({
      isPublished: false,
      isSpam: false,
      moderationState: "REJECTED",
    });
    expect(afterEdit("SPAM", { isPublished: true, isSpam: false })).toEqual({
      isPublished: false,
      isSpam: true,
      moderationState: "SPAM",
    });
  });

  it("keeps an approval through a clean edit and sends a held edit back to the queue", () => {
    expect(afterEdit("APPROVED", { isPublished: true, isSpam: false }).moderationState).toBe("APPROVED");
    expect(afterEdit("APPROVED", { isPublished: false, isSpam: false })).toEqual({
      isPublished: false,
      isSpam: false,
      moderationState: "UNDECIDED",
    });
    expect(afterEdit("UNDECIDED", { isPublished: false, isSpam: true })).toEqual({
      isPublished: false,
      isSpam: true,
      moderationState: "UNDECIDED",
    });
  });
});
