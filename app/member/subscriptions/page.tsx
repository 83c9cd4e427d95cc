import { ReaderMain, ReaderShell } from "@/components/members/reader-shell";
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
      <ReaderMain publisher={page.publisher} title={t("self.title")} intro={t("self.intro")}>
        <SelfService frameHosts={page.publisher?.publicationHosts ?? []} />
      </ReaderMain>
    </ReaderShell>
  );
}
