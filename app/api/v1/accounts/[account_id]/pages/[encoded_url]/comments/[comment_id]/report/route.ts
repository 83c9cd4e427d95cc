// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/report
// – the signed-in reader reports a visible comment to the moderators
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: READER_ACTIONS.reportComment });
