import { MemberForgotPasswordForm } from "@/components/members/member-password-forms";

import { memberMetadata, MemberPageFrame, returnToOf, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("forgot.title");

/** /member/forgot-password?return_to=<path>: a reset link by e-mail, opening /member/reset-password. */
export default async function MemberForgotPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  return (
    <MemberPageFrame titleKey="forgot.title" introKey="forgot.intro">
      <MemberForgotPasswordForm returnTo={await returnToOf(searchParams)} />
    </MemberPageFrame>
  );
}
