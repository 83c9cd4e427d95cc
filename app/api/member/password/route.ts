// POST /api/member/password – the same as /api/member/password/reset (the path quintype-ruby posts to)
import { resetPasswordRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: resetPasswordRoute("content", "Alias of POST /api/member/password/reset {token, password}."),
});
