// POST /api/member/delete-account/confirm – the reader confirms the deletion of their account with the mailed token; the erasure starts and they are signed out
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: MEMBER_PAGES.confirmDeletion });
