import { describe, expect, it } from "vitest";

import { afterEdit, commentVersion, decideAction, stateBefore, type CommentFlags } from "./decisions";

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

describe("commentVersion", () => {
  const base = {
    moderationState: "REJECTED" as const,
    isPublished: false,
    isSpam: false,
    deletedAt: null,
    decidedAt: new Date("2026-11-25T10:00:00Z"),
    editedAt: null,
  };

  it("changes with every decision, edit and deletion, and only with them", () => {
    const v = commentVersion(base);
    expect(commentVersion({ ...base })).toBe(v);
    expect(commentVersion({ ...base, moderationState: "APPROVED", isPublished: true })).not.toBe(v);
    expect(commentVersion({ ...base, decidedAt: new Date("2026-11-25T10:00:01Z") })).not.toBe(v);
    expect(commentVersion({ ...base, editedAt: new Date() })).not.toBe(v);
    expect(commentVersion({ ...base, deletedAt: new Date() })).not.toBe(v);
    expect(commentVersion({ ...base, isSpam: true })).not.toBe(v);
    expect(v.length).toBeLessThanOrEqual(100);
  });
});

describe("stateBefore", () => {
  it("reads the state a decision's audit entry kept", () => {
    expect(
      stateBefore({
        from: "undecided",
        to: "rejected",
        published: { from: true, to: false },
        spam: { from: false, to: false },
        decidedBefore: { byId: null, at: null },
        openReports: 3,
      }),
    ).toEqual({
      moderationState: "UNDECIDED",
      isPublished: true,
      isSpam: false,
      decidedById: null,
      decidedAt: null,
      openReports: 3,
    });
    expect(
      stateBefore({
        from: "approved",
        published: { from: true },
        spam: { from: false },
        decidedBefore: { byId: "u1", at: "2026-11-25T10:00:00.000Z" },
      }),
    ).toMatchObject({
      moderationState: "APPROVED",
      decidedById: "u1",
      decidedAt: new Date("2026-11-25T10:00:00Z"),
      openReports: 0,
    });
  });

  it("refuses entries written before undo existed, or not by a decision", () => {
    expect(stateBefore({ from: "undecided", to: "approved", published: { from: false, to: true } })).toBeNull();
    expect(stateBefore(null)).toBeNull();
    expect(
      stateBefore({ from: "nonsense", published: { from: false }, spam: { from: false }, decidedBefore: {} }),
    ).toBeNull();
  });
});
