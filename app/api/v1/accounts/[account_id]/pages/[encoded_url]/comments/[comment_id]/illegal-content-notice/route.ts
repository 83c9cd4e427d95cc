// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/illegal-content-notice
// – a reader, signed in or not, notifies a comment as illegal content (EU Digital Services Act art. 16)
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: READER_ACTIONS.illegalContentNotice });
