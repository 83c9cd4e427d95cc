// POST /api/member/subscriptions/{id}/retention-offer – take the publisher's offer instead of cancelling
import { routes } from "@/server/http/route";
import { SELF_SERVICE_WRITES } from "@/server/http/self-service-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: SELF_SERVICE_WRITES.retentionOffer });
