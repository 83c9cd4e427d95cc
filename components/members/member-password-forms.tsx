"use client";

/**
 * The member's two signed-out password pages (app/member/forgot-password, app/member/reset-password),
 * on the publisher's host: ask for a reset link (POST /api/member/forgot-password with
 * `page: "hosted"`, so the e-mail links back to the hosted reset page; the answer is the same for
 * every e-mail), then choose the new password with the link's token (POST /api/member/password/reset).
 */
import { ForgotPasswordPanel, ResetPasswordPanel, type PasswordPages } from "@/components/ui/password-reset";

const MEMBER: PasswordPages = {
  forgotApi: "/api/member/forgot-password",
  forgotBody: { page: "hosted" },
  resetApi: "/api/member/password/reset",
  forgotPage: "/member/forgot-password",
  signInPage: "/member/login",
  minPasswordLength: 8,
  testIdPrefix: "member-",
};

export function MemberForgotPasswordForm({ returnTo }: { returnTo: string }) {
  return <ForgotPasswordPanel pages={MEMBER} back={`/member/login?return_to=${encodeURIComponent(returnTo)}`} />;
}

export function MemberResetPasswordForm({ token }: { token: string }) {
  return <ResetPasswordPanel pages={MEMBER} token={token} />;
}
