import type { Metadata } from "next";

import { MemberAuthPage, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create your account", robots: { index: false } };

/** /member/signup?return_to=<path>: a new reader's account, signed in at once, then return_to. */
export default function MemberSignupPage({ searchParams }: { searchParams: SearchParams }) {
  return <MemberAuthPage mode="signup" searchParams={searchParams} />;
}
