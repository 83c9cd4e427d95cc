// PUT /api/access/v1/members/me/subscriptions/{id}/cancel – the reader cancels at period end (client API)
import { READER_SUBSCRIPTION } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ PUT: READER_SUBSCRIPTION.cancel });
