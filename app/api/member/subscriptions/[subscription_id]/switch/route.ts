// POST /api/member/subscriptions/{id}/switch – confirm a previewed plan switch, exactly as previewed
import { routes } from "@/server/http/route";
import { SELF_SERVICE_WRITES } from "@/server/http/self-service-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: SELF_SERVICE_WRITES.switch });
