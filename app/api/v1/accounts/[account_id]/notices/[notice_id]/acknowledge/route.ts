// POST /api/v1/accounts/{account_id}/notices/{notice_id}/acknowledge – the reader saw a moderator's notice
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: READER_ACTIONS.acknowledgeNotice });
