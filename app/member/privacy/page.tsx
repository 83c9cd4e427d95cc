import { PrivacyExport } from "@/components/members/privacy-export";
import { ReaderShell } from "@/components/members/reader-shell";

import { memberMetadata } from "../member-auth-page";
import { readerPage } from "../reader-page";

export const dynamic = "force-dynamic";
export const generateMetadata = () => memberMetadata("export.title");

/**
 * /member/privacy ("Your data"): the signed-in reader asks for a copy of everything the
 * publication holds about them (docs/privacy.md "Data export (subject access)"), and finds the way
 * to delete their account. In the reader's language; the data goes through
 * /api/member/privacy/exports with the session cookie.
 */
export default async function PrivacyPage() {
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
        <h1 className="mt-1 text-xl font-semibold text-gray-900">{t("export.title")}</h1>
        <p className="mt-1 text-sm text-gray-600">{t("export.intro")}</p>
        <div className="mt-6">
          <PrivacyExport />
        </div>
      </main>
    </ReaderShell>
  );
}
