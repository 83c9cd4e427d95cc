import { MemberAuthPage, memberMetadata, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("signup.title");

/** /member/signup?return_to=<path>: a new reader's account, signed in at once, then return_to. */
export default function MemberSignupPage({ searchParams }: { searchParams: SearchParams }) {
  return <MemberAuthPage mode="signup" searchParams={searchParams} />;
}
