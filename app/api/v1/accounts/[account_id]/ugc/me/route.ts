// GET /api/v1/accounts/{account_id}/ugc/me?jwt= – the reader's own UGC submissions with their status
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.myUgc });
