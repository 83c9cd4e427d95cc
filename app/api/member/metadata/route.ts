// GET /api/member/metadata – the logged-in member's metadata object
// POST /api/member/metadata – replace it (an object, at most 16 KB)
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: MEMBER_PAGES.metadata,
  POST: MEMBER_PAGES.setMetadata,
});
