"use client";

/**
 * The two signed-out password pages of the dashboard: "Forgot password?" and the page its link
 * opens. They post to the REST routes /api/admin/password/{forgot,reset}.
 */
import { ForgotPasswordPanel, ResetPasswordPanel, type PasswordPages } from "@/components/ui/password-reset";

const STAFF: PasswordPages = {
  forgotApi: "/api/admin/password/forgot",
  resetApi: "/api/admin/password/reset",
  forgotPage: "/admin/forgot-password",
  signInPage: "/admin/sign-in",
  minPasswordLength: 12,
  testIdPrefix: "",
};

export function ForgotPasswordForm() {
  return <ForgotPasswordPanel pages={STAFF} back={STAFF.signInPage} />;
}

export function ResetPasswordForm({ token }: { token: string }) {
  return <ResetPasswordPanel pages={STAFF} token={token} />;
}
