/**
 * Reader reports (docs/engagement.md "Reports"): POST .../pages/<b64>/comments/<comment_id>/report.
 */
import { z } from "zod";

import { ZCommentParams } from "./comments.schema";
import { REPORT_REASONS } from "./moderation/queue/queue.schema";

export { REPORT_REASONS };

/** Reports since the last decision that hold an undecided published comment for a moderator. */
export const REPORTS_TO_HOLD = 3;

export const ZReportParams = ZCommentParams;

// Control characters other than tab and line feed are refused, as in comment bodies.
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;

export const ZReportBody = z.object({
  jwt: z.string().optional(),
  reason: z.enum(REPORT_REASONS, { error: `must be one of ${REPORT_REASONS.join(", ")}` }),
  note: z
    .string()
    .trim()
    .max(500, "must be at most 500 characters")
    .refine((s) => !CONTROL.test(s), "must not contain control characters (other than tab and line feed)")
    .optional(),
});
export type TReportBody = z.output<typeof ZReportBody>;

/** The answer: the reader's report of the comment (the first one, when they had reported it already). */
export type TReportWire = {
  report: { comment_id: number; reason: string; note: string | null; created_at: string };
  /** false: the reader had reported this comment before; nothing changed. */
  created: boolean;
};
