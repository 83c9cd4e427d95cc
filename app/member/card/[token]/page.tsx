import { CardLink } from "@/components/members/card-link";
import { ReaderShell } from "@/components/members/reader-shell";
import { getDb } from "@/server/db";
import { cardLinkReader } from "@/server/subscriptions/self-service/card-link-access";

import { memberMetadata } from "../../member-auth-page";
import { readerPage } from "../../reader-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("cardLink.title", { referrer: "no-referrer" });

/** The page's reader: the one the link names (their saved language), on the link's account. */
async function linkPage(token: string) {
  const reader = await cardLinkReader(await getDb(), { token, now: new Date() });
  return reader ? readerPage(reader.accountId, reader.locale) : readerPage();
}

/** /member/card/<token>: a signed "update your card" link's page (docs/subscriptions.md "Dunning"). */
export default async function CardLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const page = await linkPage(token);
  const { t } = page.words;
  return (
    <ReaderShell page={page}>
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
        <h1 className="text-xl font-semibold text-gray-900">{t("cardLink.title")}</h1>
        <p className="mt-1 text-sm text-gray-600">{t("cardLink.intro")}</p>
        <div className="mt-6">
          <CardLink token={token} />
        </div>
      </main>
    </ReaderShell>
  );
}
