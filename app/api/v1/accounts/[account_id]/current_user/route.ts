// GET /api/v1/accounts/{account_id}/current_user?jwt= – the widget's reader under third-party login (spec §4.1)
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.currentUser });
