// POST /api/access/v1/members/me/subscriptions/{id}/card-link – a signed "update your card" link for a reader in grace (client API)
import { READER_SUBSCRIPTION } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: READER_SUBSCRIPTION.cardLink });
