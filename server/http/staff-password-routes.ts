/**
 * The dashboard's two signed-out password endpoints (server/auth/staff-passwords.ts), made here so
 * their route files stay one line: "Forgot password?" and the reset page's form. Both are
 * `auth: "public"` (the person is not signed in) and limited per IP; they answer privately
 * (no-store), and "forgot" answers the same for every e-mail.
 */
import type { z } from "zod";

import { getEnv } from "../../env.js";
import { requestAdminPasswordReset, resetAdminPassword } from "../auth/staff-passwords";
import {
  ADMIN_FORGOT_PASSWORD_MESSAGE,
  ZAdminForgotPasswordInput,
  ZAdminResetPasswordInput,
} from "../auth/staff.schema";
import { privateJson } from "./member-session";
import { apiRoute, type HandlerContext, type RouteHandler } from "./route";

/**
 * A signed-out password POST: public, at most `perMinute` a minute per IP (rate limit `name`);
 * `act` does what the body asks and says what happened, answered privately as {message}.
 */
function passwordRoute<B extends z.ZodType>(
  options: { body: B; name: string; perMinute: number; summary: string },
  act: (args: HandlerContext<"public", z.ZodType, B, z.ZodType>) => Promise<string>,
): RouteHandler {
  const { body, name, perMinute, summary } = options;
  return apiRoute(
    { auth: "public", body, rateLimit: { name, limit: perMinute, windowSeconds: 60, by: "ip" }, summary },
    async (args) => privateJson({ message: await act(args) }),
  );
}

/** POST {email}: a reset link by e-mail when it is a dashboard user's; 200 {message} either way. */
export function forgotStaffPasswordRoute(): RouteHandler {
  return passwordRoute(
    {
      body: ZAdminForgotPasswordInput,
      name: "admin.forgot-password",
      perMinute: 10,
      summary:
        "Dashboard users: ask for a password reset link {email}. 200 {message}, the same whether or not the e-mail is a user's; 429 past 10 a minute per IP or 5 an hour per e-mail.",
    },
    async ({ db, body }) => {
      await requestAdminPasswordReset(db, { email: body.email, appUrl: getEnv().APP_URL });
      return ADMIN_FORGOT_PASSWORD_MESSAGE;
    },
  );
}

/** POST {token, password}: set the password of the link's user; all of their sessions end. */
export function resetStaffPasswordRoute(): RouteHandler {
  return passwordRoute(
    {
      body: ZAdminResetPasswordInput,
      name: "admin.password-reset",
      perMinute: 20,
      summary:
        "Dashboard users: set a new password {token, password} from a reset or invitation link. 200 {message}; 422 when the token is unknown, expired or used; 400 for a password under 12 characters. Every session of the user ends.",
    },
    async ({ db, body, ip }) => {
      await resetAdminPassword(db, { ...body, ip });
      return "Your password is set. Sign in with it.";
    },
  );
}
