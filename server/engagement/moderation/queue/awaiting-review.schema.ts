/**
 * GET …/pages/<id>/awaiting_review.json (awaiting-review.ts): the reader's publisher JWT, as every
 * engagement call. zod only.
 */
import { z } from "zod";

export const ZAwaitingReviewQuery = z.object({ jwt: z.string().optional() });
