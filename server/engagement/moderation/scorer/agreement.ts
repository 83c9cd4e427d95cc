/**
 * How a configuration's holds agreed with the moderators (docs/engagement.md "Shadow mode"). Pure:
 * shadow.ts counts the comments in SQL and asks here.
 *
 * Each comment compared is judged by what moderators did with it:
 * - **rejected**: a moderator rejected it or marked it spam;
 * - **approved**: a moderator approved it, or (the rule for comments nobody decided) it is
 *   published, not deleted, more than a day old (UNREVIEWED_AFTER_MS) and was never reported:
 *   readers and moderators had a day to object and nobody did;
 * - anything else (undecided and held, less than a day old, reported, deleted without a decision)
 *   is left out of the figures, counted as "undecided".
 * Of the judged comments: precision of holding = of those it would hold, the share rejected;
 * recall = of those rejected, the share it would hold. Null when there is nothing to divide by.
 */
import type { TAgreement } from "./scoring-settings.schema";

/** A published comment nobody decided counts as approved once it is this old and was never reported. */
export const UNREVIEWED_AFTER_MS = 24 * 60 * 60 * 1000;

/** The judged comments, counted by whether the configuration would hold them and what moderators did. */
export type HoldCounts = {
  heldRejected: number;
  heldApproved: number;
  passedRejected: number;
  passedApproved: number;
};

const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

export function agreementOf(c: HoldCounts): TAgreement {
  const held = c.heldRejected + c.heldApproved;
  return {
    held,
    heldRejected: c.heldRejected,
    heldApproved: c.heldApproved,
    missed: c.passedRejected,
    precision: share(c.heldRejected, held),
    recall: share(c.heldRejected, c.heldRejected + c.passedRejected),
  };
}
