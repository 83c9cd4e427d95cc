// GET /api/member/newsletters – the newsletters the signed-in reader may join, with their status
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: MEMBER_PAGES.newsletters });
