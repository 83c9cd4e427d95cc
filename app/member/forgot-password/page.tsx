import type { Metadata } from "next";

import { MemberForgotPasswordForm } from "@/components/members/member-password-forms";

import { MemberPageFrame, returnToOf, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };

/** /member/forgot-password?return_to=<path>: a reset link by e-mail, opening /member/reset-password. */
export default async function MemberForgotPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  return (
    <MemberPageFrame
      title="Forgot your password?"
      intro="Give the e-mail you sign in with: we send a link to choose a new password, valid for one hour."
    >
      <MemberForgotPasswordForm returnTo={await returnToOf(searchParams)} />
    </MemberPageFrame>
  );
}
