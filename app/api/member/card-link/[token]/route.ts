// GET/PUT /api/member/card-link/{token} – the card update of one subscription through a signed "update your card" link
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: MEMBER_PAGES.cardLink,
  PUT: MEMBER_PAGES.updateCardByLink,
});
