// POST /api/auth/v1/users/profile – bridgekeeper's updateUserProfile
import { profileRoute } from "@/server/http/member-routes";
import { routes } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: profileRoute(
    '@quintype/bridgekeeper-js updateUserProfile: name, "first-name", "last-name", bio, "avatar-url", "avatar-s3-key", "twitter-handle", "communication-email" of the signed-in member (other keys ignored; the e-mail only with update-with-otp). 200 {user}.',
  ),
});
