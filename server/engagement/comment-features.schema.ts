/**
 * Moderators' conversation tools on one comment (docs/engagement.md "Conversation tools"): feature
 * (pin) a top-level comment, mark a question of a Q&A page answered. zod only, so the dashboard
 * can import it; the service is comment-features.ts.
 */
import { z } from "zod";

const zCommentId = z.number().int("must be a whole number").positive().max(2_147_483_647);

export const ZFeatureCommentInput = z.strictObject({ commentId: zCommentId, featured: z.boolean() });
export type TFeatureCommentInput = z.output<typeof ZFeatureCommentInput>;

export const ZMarkAnsweredInput = z.strictObject({ commentId: zCommentId, answered: z.boolean() });
export type TMarkAnsweredInput = z.output<typeof ZMarkAnsweredInput>;

/** `changed` false: it was so already, nothing was written. */
export const ZCommentFlagResult = z.object({
  changed: z.boolean(),
  commentId: z.number().int(),
  featured: z.boolean(),
  answered: z.boolean(),
});
export type TCommentFlagResult = z.output<typeof ZCommentFlagResult>;
