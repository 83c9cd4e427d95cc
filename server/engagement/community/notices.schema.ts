/**
 * The reader's side of moderators' notices (docs/engagement.md "Notices to readers"):
 * GET /api/v1/accounts/<account_id>/notices and POST …/notices/<notice_id>/acknowledge, with the
 * reader's publisher JWT as every engagement call.
 */
import { z } from "zod";

import { PG_INT_MAX, zWholeNumber } from "../../params.schema";

export const ZNoticesParams = z.object({ account_id: z.string() });
export const ZNoticesQuery = z.object({ jwt: z.string().optional() });

export const ZAcknowledgeNoticeParams = ZNoticesParams.extend({
  notice_id: zWholeNumber({ min: 1, max: PG_INT_MAX }),
});
export const ZAcknowledgeNoticeBody = z.object({ jwt: z.string().optional() });

/** A notice as the widget reads it (snake_case, as the engagement API). */
export type TNoticeWire = {
  id: number;
  kind: "warning" | "ban" | "suspension";
  /** The moderator's words (plain text; may be empty for a ban or suspension). */
  message: string;
  created_at: string;
  /** A suspension's end (ISO 8601, UTC): the widget says it in the reader's language and time zone. Null otherwise. */
  until: string | null;
  acknowledged_at: string | null;
};
