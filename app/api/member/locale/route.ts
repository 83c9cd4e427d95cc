// PUT /api/member/locale – the reader's language for the member pages (saved on the member record when signed in)
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ PUT: MEMBER_PAGES.locale });
