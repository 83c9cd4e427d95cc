// POST /api/access/v1/members/me/subscriptions/{id}/switch_plan/preview – the terms of a plan switch (client API)
import { READER_SUBSCRIPTION } from "@/server/http/reader-subscription-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: READER_SUBSCRIPTION.previewSwitch });
