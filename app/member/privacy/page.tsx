import { PrivacyExport } from "@/components/members/privacy-export";
import { ReaderMain, ReaderShell } from "@/components/members/reader-shell";

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
      <ReaderMain publisher={page.publisher} title={t("export.title")} intro={t("export.intro")}>
        <PrivacyExport />
      </ReaderMain>
    </ReaderShell>
  );
}
