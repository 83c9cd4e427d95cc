// POST /api/stories/{story-id}/votes – the logged-in member votes a published story up or down (again: changes the vote)
// GET /api/stories/{story-id}/votes – the story's vote totals and the member's own vote
import { MEMBER_PAGES } from "@/server/http/member-page-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ POST: MEMBER_PAGES.vote, GET: MEMBER_PAGES.votes });
