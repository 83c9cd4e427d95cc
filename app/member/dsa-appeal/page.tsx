import { DsaAppeal } from "@/components/members/dsa-appeal";
import { ReaderMain, ReaderShell } from "@/components/members/reader-shell";
import { getDb } from "@/server/db";
import { dsaAppealReader } from "@/server/engagement/dsa/appeals";

import { memberMetadata, type SearchParams } from "../member-auth-page";
import { readerPage } from "../reader-page";

export const dynamic = "force-dynamic";
// The token is in the URL: never send it to another site as a Referer.
export const generateMetadata = () => memberMetadata("dsa.title", { referrer: "no-referrer" });

/** The page's reader: the party the link names (their language), on the link's account. */
async function linkPage(token: string) {
  const reader = await dsaAppealReader(await getDb(), { token });
  return reader ? readerPage(reader.accountId, reader.locale) : readerPage();
}

/**
 * /member/dsa-appeal?token=…: the appeal link of a decision on an illegal-content notice (the
 * statement of reasons to the comment's author, the decision to the notifier; docs/privacy.md).
 */
export default async function DsaAppealPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).token;
  const token = ((Array.isArray(raw) ? raw[0] : raw) ?? "").slice(0, 60);
  const page = await linkPage(token);
  const { t } = page.words;
  return (
    <ReaderShell page={page}>
      <ReaderMain title={t("dsa.title")} intro={t("dsa.intro")}>
        <DsaAppeal token={token} />
      </ReaderMain>
    </ReaderShell>
  );
}
