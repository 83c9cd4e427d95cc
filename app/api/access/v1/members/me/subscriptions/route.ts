// GET|POST /api/access/v1/members/me/subscriptions – the signed-in reader's subscriptions, and create one
// from a preview (checkout) (client API)
import { clientCheckoutRoute } from "@/server/http/checkout-routes";
import { READER_LISTS } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: READER_LISTS.subscriptions,
  POST: clientCheckoutRoute("create"),
});
