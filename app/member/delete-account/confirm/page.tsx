import { DeleteAccountConfirm } from "@/components/members/delete-account";

import { memberMetadata, MemberPageFrame, type SearchParams } from "../../member-auth-page";

export const dynamic = "force-dynamic";
// The token is in the URL: never send it to another site as a Referer.
export const generateMetadata = () => memberMetadata("erase.confirmTitle", { referrer: "no-referrer" });

/**
 * Opened from the deletion mail (`?token=…`, server/privacy/erasure/reader-request.ts): the GET
 * only shows the button; its POST confirms, and the erasure starts.
 */
export default async function ConfirmDeleteAccountPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).token;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  return (
    <MemberPageFrame titleKey="erase.confirmTitle" introKey="erase.confirmIntro">
      <DeleteAccountConfirm token={token.slice(0, 200)} />
    </MemberPageFrame>
  );
}
