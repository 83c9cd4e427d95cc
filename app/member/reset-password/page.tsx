import { MemberResetPasswordForm } from "@/components/members/member-password-forms";

import { memberMetadata, MemberPageFrame, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
// The token is in the URL: never send it to another site as a Referer.
export const generateMetadata = () => memberMetadata("reset.title", { referrer: "no-referrer" });

/** Opened from the reset e-mail asked for on /member/forgot-password: `?token=…` (server/members/reset-link.ts). */
export default async function MemberResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).token;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  return (
    <MemberPageFrame titleKey="reset.title" introKey="reset.intro">
      <MemberResetPasswordForm token={token.slice(0, 200)} />
    </MemberPageFrame>
  );
}
