// POST /api/member/dsa-appeal/view – the decision an appeal link names, for its page (the token in the body, not the URL)
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: MEMBER_PAGES.dsaAppealView });
