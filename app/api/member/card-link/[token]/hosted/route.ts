// GET /api/member/card-link/{token}/hosted – through a signed "update your card" link, to the gateway's own card page
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: MEMBER_PAGES.hostedCardPage });
