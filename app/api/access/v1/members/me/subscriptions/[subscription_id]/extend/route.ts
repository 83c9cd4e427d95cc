// PATCH /api/access/v1/members/me/subscriptions/{id}/extend – move the end of a one-time subscription (client API)
import { READER_SUBSCRIPTION } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ PATCH: READER_SUBSCRIPTION.extend });
