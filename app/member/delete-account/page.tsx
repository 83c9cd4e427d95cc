import { headers } from "next/headers";

import { DeleteAccountAsk } from "@/components/members/delete-account";
import { getDb } from "@/server/db";
import { memberTokenFromRequest } from "@/server/http/member-session";
import { authenticateMember } from "@/server/members/sessions";

import { memberMetadata, MemberPageFrame } from "../member-auth-page";
import { readerPage } from "../reader-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("erase.title");

/** Whether a reader of this publication is signed in on this browser. */
async function signedIn(): Promise<boolean> {
  const { publisher } = await readerPage();
  const token = memberTokenFromRequest({ headers: await headers() });
  if (!publisher || !token) return false;
  const db = await getDb();
  const session = await authenticateMember(db, { accountId: publisher.accountId, token, now: new Date() }).catch(
    () => null,
  );
  return session !== null;
}

/**
 * /member/delete-account: a signed-in reader asks to delete their account; the confirmation link
 * is mailed to them (docs/privacy.md "Erasure"). Nothing is deleted from this page.
 */
export default async function DeleteAccountPage() {
  return (
    <MemberPageFrame titleKey="erase.title" introKey="erase.intro">
      <DeleteAccountAsk signedIn={await signedIn()} />
    </MemberPageFrame>
  );
}
