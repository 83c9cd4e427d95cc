// PUT /api/member/newsletters/{slug} – the signed-in reader joins or leaves a newsletter
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ PUT: MEMBER_PAGES.setNewsletter });
