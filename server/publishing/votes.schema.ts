/** Story votes (spec §4.4 /api/stories/{story-id}/votes): what members send and what they get back. */
import { z } from "zod";

/**
 * POST /api/stories/{story-id}/votes. The spec sends the magnitude as a string ("1" or "-1");
 * numbers are taken too. Other keys (quintype-ruby also posts story_id) are ignored.
 */
export const ZVoteInput = z.object({
  magnitude: z
    .union([z.literal(["1", "-1", "+1"]), z.literal([1, -1])], { error: 'must be "1" or "-1"' })
    .transform((value) => (Number(value) > 0 ? 1 : -1)),
});

/** Vote totals of one story: `total` is the net score (up − down), the story's `votes` field. */
export const ZVoteTotals = z.object({ total: z.number().int(), up: z.number().int(), down: z.number().int() });
export type TVoteTotals = z.infer<typeof ZVoteTotals>;
