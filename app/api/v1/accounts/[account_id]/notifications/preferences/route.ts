// GET /api/v1/accounts/{account_id}/notifications/preferences?jwt= – the reader's choices of e-mails about their comments
// PUT /api/v1/accounts/{account_id}/notifications/preferences – change them
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: READER_ACTIONS.notificationPrefs,
  PUT: READER_ACTIONS.updateNotificationPrefs,
});
