import { ReaderShell } from "@/components/members/reader-shell";
import { SelfService } from "@/components/members/self-service";

import { memberMetadata } from "../member-auth-page";
import { readerPage } from "../reader-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("self.title");

/**
 * /member/subscriptions: the signed-in reader's self-service page on the publisher's host
 * (docs/subscriptions.md "Self-service page"), in the reader's language. It may be framed by the
 * publication's own pages (its hosts, as the widgets' frame-ancestors); framed by another site it
 * shows no actions. The data and every action go through /api/member/subscriptions… with the
 * session cookie.
 */
export default async function SelfServicePage() {
  const page = await readerPage();
  const { t } = page.words;
  return (
    <ReaderShell page={page}>
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
        {page.publisher ? (
          <p className="text-sm font-semibold tracking-tight text-gray-700" dir="auto">
            {page.publisher.name}
          </p>
        ) : null}
        <h1 className="mt-1 text-xl font-semibold text-gray-900">{t("self.title")}</h1>
        <p className="mt-1 text-sm text-gray-600">{t("self.intro")}</p>
        <div className="mt-6">
          <SelfService frameHosts={page.publisher?.publicationHosts ?? []} />
        </div>
      </main>
    </ReaderShell>
  );
}
