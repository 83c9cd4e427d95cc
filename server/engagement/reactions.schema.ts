/**
 * Reactions on comments (docs/engagement.md, "Reactions"): which reaction ids exist and the path
 * of the reaction endpoints.
 */
import { z } from "zod";

import { ZCommentParams } from "./comments.schema";

/**
 * The reaction ids a reader may give. A fixed set, not a pattern: every id becomes a key of a
 * comment's `reactions` object, so free ids would let a reader grow every comment's answer.
 */
export const REACTION_IDS = ["like", "love", "haha", "wow", "sad", "angry"] as const;
export type TReactionId = (typeof REACTION_IDS)[number];

/** POST and DELETE .../pages/<b64>/comments/<comment_id>/reactions/<reaction_id> */
export const ZReactionParams = ZCommentParams.extend({
  reaction_id: z.enum(REACTION_IDS, { error: `must be one of ${REACTION_IDS.join(", ")}` }),
});

/** The body of the reaction endpoints: the reader's jwt (or in the query). */
export const ZReactionBody = z.object({ jwt: z.string().optional() });
