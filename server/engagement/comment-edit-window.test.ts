import { describe, expect, it } from "vitest";

import { AppError } from "../errors";
import { assertWithinEditWindow, editableUntil } from "./comment-edit-window";

const createdAt = new Date("2026-11-26T10:00:00.000Z");
const after = (ms: number) => new Date(createdAt.getTime() + ms);

describe("the edit window", () => {
  it("ends the window's minutes after the comment was posted; 0 is no limit", () => {
    expect(editableUntil(createdAt, 5)?.toISOString()).toBe("2026-11-26T10:05:00.000Z");
    expect(editableUntil(createdAt, 0)).toBeNull();
  });

  it("allows an edit until its last millisecond and refuses it from its end on (403, naming the field)", () => {
    expect(() => assertWithinEditWindow({ createdAt, windowMinutes: 5, now: after(5 * 60_000 - 1) })).not.toThrow();
    let thrown: unknown;
    try {
      assertWithinEditWindow({ createdAt, windowMinutes: 5, now: after(5 * 60_000) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: "FORBIDDEN",
      message: "Comments can be edited for 5 minutes after posting; this one can no longer be edited.",
      details: [{ field: "params.comment_id", issue: "the edit window has passed" }],
    });
    expect(() => assertWithinEditWindow({ createdAt, windowMinutes: 1, now: after(60_000) })).toThrow(
      /for 1 minute after/,
    );
  });

  it("never refuses without a window", () => {
    expect(() => assertWithinEditWindow({ createdAt, windowMinutes: 0, now: after(365 * 86_400_000) })).not.toThrow();
  });
});
