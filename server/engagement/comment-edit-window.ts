/**
 * The edit window (docs/engagement.md "Edit window"): a reader may edit their comment for the
 * account's `editWindowMinutes` after posting it (moderation settings; 0: no limit). Pure: the
 * edit service checks it, the list states it to the author as `editable_until`.
 */
import { AppError } from "../errors";

/** Until when a comment created at `createdAt` may be edited; null when there is no limit. */
export function editableUntil(createdAt: Date, windowMinutes: number): Date | null {
  if (windowMinutes <= 0) return null;
  return new Date(createdAt.getTime() + windowMinutes * 60_000);
}

/** 403 once the window has passed (at `until` itself the edit is refused). */
export function assertWithinEditWindow(args: { createdAt: Date; windowMinutes: number; now: Date }): void {
  const until = editableUntil(args.createdAt, args.windowMinutes);
  if (until && args.now.getTime() >= until.getTime()) {
    throw new AppError(
      "FORBIDDEN",
      `Comments can be edited for ${args.windowMinutes} minute${args.windowMinutes === 1 ? "" : "s"} after posting; this one can no longer be edited.`,
      { details: [{ field: "params.comment_id", issue: "the edit window has passed" }] },
    );
  }
}
