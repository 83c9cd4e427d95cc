// POST, DELETE /api/v1/accounts/{account_id}/pages/{b64 url}/comments/{comment_id}/reactions/{reaction_id}
// – the signed-in reader gives or takes back a reaction
import { REACTION_ROUTES } from "@/server/http/reader-action-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(REACTION_ROUTES.comment);
