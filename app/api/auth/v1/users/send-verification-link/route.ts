// POST /api/auth/v1/users/send-verification-link – bridgekeeper's sendVerificationLink {email, "redirect-url"}
import { sendVerificationLinkRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: sendVerificationLinkRoute(
    "@quintype/bridgekeeper-js sendVerificationLink {email, \"redirect-url\"}: mails a link (24 hours, single use) to GET /api/auth/v1/users/verify-email when the e-mail is an unverified member's. 200 {message} either way; 400 when redirect-url is not on the publication's hosts.",
  ),
});
