// GET /api/v1/accounts/{account_id}/pages/{b64 url}/awaiting_review.json?jwt= – the reader's own comments on the page that wait for a moderator
import { READER_ACTIONS } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: READER_ACTIONS.awaitingReview });
