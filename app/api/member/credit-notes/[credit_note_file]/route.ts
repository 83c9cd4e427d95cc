// GET /api/member/credit-notes/{id}.pdf|.html – one of the signed-in member's credit notes, for the self-service page
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: MEMBER_PAGES.creditNoteFile });
