// POST /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/hide – the author hides a comment
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: READER_ACTIONS.hideComment });
