// GET /api/v1/accounts/{account_id}/notices?jwt= – the reader's moderators' notices still to show (warnings, bans, suspensions)
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.notices });
