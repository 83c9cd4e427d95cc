/**
 * Wire shapes of "which stories convert" (docs/subscriptions.md "Which stories convert"): the
 * anonymous reader id the member flows and checkout take to link a reader to a member, and the
 * dashboard's query (a range of the account's days, and what to group the stories by).
 */
import { z } from "zod";

import { zDayRange } from "../../dates.schema";
import { ZReaderId } from "../access/access.schema";

/** Optional `readerId` beside another query (checkout, member flows). */
export const ZReaderIdQuery = z.object({ readerId: ZReaderId });

export const CONVERSION_GROUPS = ["story", "section", "author", "tag"] as const;
export type TConversionGroup = (typeof CONVERSION_GROUPS)[number];

/** The Conversions page and its CSV: days of the account's zone (both included, at most 366) and the grouping. */
export const ZConversionsInput = zDayRange(366).and(z.object({ by: z.enum(CONVERSION_GROUPS).default("story") }));
export type TConversionsInput = z.output<typeof ZConversionsInput>;

/** The story editor's panel: one story over a range (the last 30 days of the account's zone when left out). */
export const ZStoryConversionsInput = z.object({ storyId: z.uuid(), range: zDayRange(366).optional() });
