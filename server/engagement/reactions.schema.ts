/**
 * Reactions on comments and on pages (docs/engagement.md, "Reactions", "Page reactions"): which
 * reaction ids exist and the inputs and answer of the reaction endpoints.
 */
import { z } from "zod";

import { ZCommentParams, ZPageParams } from "./comments.schema";

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

/** GET .../pages/<b64>/reactions: the reader's jwt is optional (with it, my_reactions). */
export const ZPageReactionsQuery = z.object({ jwt: z.string().optional() });

/** POST and DELETE .../pages/<b64>/reactions/<reaction_id> */
export const ZPageReactionParams = ZPageParams.extend({ reaction_id: ZReactionParams.shape.reaction_id });

/** The answer of the page-reaction endpoints. */
export type TPageReactionsWire = {
  page_url: string;
  /** Reaction id → count, as a comment's: the ids nobody gave are left out. */
  reactions: Partial<Record<TReactionId, number>>;
  total_count: number;
  /** The ids the signed-in reader gave; [] without a jwt. */
  my_reactions: TReactionId[];
};
