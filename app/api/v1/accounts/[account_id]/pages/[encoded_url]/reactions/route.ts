// GET /api/v1/accounts/{account_id}/pages/{b64 url}/reactions – the reactions on a page (the page-reactions widget)
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.pageReactions });
