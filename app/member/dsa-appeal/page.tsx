import { DsaAppeal } from "@/components/members/dsa-appeal";
import { ReaderShell } from "@/components/members/reader-shell";
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
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
        <h1 className="text-xl font-semibold text-gray-900">{t("dsa.title")}</h1>
        <p className="mt-1 text-sm text-gray-600">{t("dsa.intro")}</p>
        <div className="mt-6">
          <DsaAppeal token={token} />
        </div>
      </main>
    </ReaderShell>
  );
}
