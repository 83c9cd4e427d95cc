// GET|PATCH /api/access/v1/members/me/subscriptions/{id} – one of the reader's subscriptions (client API)
import { READER_SUBSCRIPTION } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: READER_SUBSCRIPTION.get,
  PATCH: READER_SUBSCRIPTION.updateMetadata,
});
