// GET /api/v1/accounts/{account_id}/feed/me?jwt= – the signed-in reader's activity: own comments, replies, mentions
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.myFeed });
