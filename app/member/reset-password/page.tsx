import type { Metadata } from "next";

import { MemberResetPasswordForm } from "@/components/members/member-password-forms";

import { MemberPageFrame, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = {
  title: "Choose a new password",
  robots: { index: false },
  // The token is in the URL: never send it to another site as a Referer.
  referrer: "no-referrer",
};

/** Opened from the reset e-mail asked for on /member/forgot-password: `?token=…` (server/members/reset-link.ts). */
export default async function MemberResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).token;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  return (
    <MemberPageFrame title="Choose a new password" intro="You then sign in with it.">
      <MemberResetPasswordForm token={token.slice(0, 200)} />
    </MemberPageFrame>
  );
}
