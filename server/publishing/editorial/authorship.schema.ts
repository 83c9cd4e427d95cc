/**
 * The account's editorial rules (./authorship.ts), as the Users & keys page edits them. zod only,
 * so the form imports it.
 */
import { z } from "zod";

export const ZEditorialRules = z.strictObject({
  /** Nobody (owners included) approves, publishes or schedules a story they wrote. */
  noSelfApproval: z.boolean(),
});
export type TEditorialRules = z.infer<typeof ZEditorialRules>;
