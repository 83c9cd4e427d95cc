// POST /api/member/dsa-appeal – a party appeals a DSA notice's decision through their mailed link (art. 20)
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: MEMBER_PAGES.dsaAppeal });
