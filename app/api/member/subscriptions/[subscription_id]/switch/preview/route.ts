// POST /api/member/subscriptions/{id}/switch/preview – the terms of a plan switch, in words, behind a signed attempt token
import { routes } from "@/server/http/route";
import { SELF_SERVICE_WRITES } from "@/server/http/self-service-routes";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: SELF_SERVICE_WRITES.previewSwitch });
