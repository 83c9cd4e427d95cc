// GET, POST /api/member/privacy/exports – the signed-in reader's data export: its state, or ask for one
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: MEMBER_PAGES.latestExport,
  POST: MEMBER_PAGES.requestExport,
});
