import { MemberAuthPage, memberMetadata, type SearchParams } from "../member-auth-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("login.title");

/** /member/login?return_to=<path>: where OAuth's authorize sends a reader without a session. */
export default function MemberLoginPage({ searchParams }: { searchParams: SearchParams }) {
  return <MemberAuthPage mode="login" searchParams={searchParams} />;
}
