import type { Metadata } from "next";

import { DsaNotices } from "@/components/engagement/dsa-notices";
import { DsaReportPanel } from "@/components/engagement/dsa-report";

import { EngagementPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Illegal-content notices" };

/** The EU Digital Services Act's notice and action for comments (docs/privacy.md, "Illegal-content notices"). */
export default function DsaNoticesPage() {
  return (
    <EngagementPage
      section="dsa"
      title="Illegal-content notices"
      description="Readers' notices of comments they believe illegal (EU Digital Services Act). A notice hides nothing: decide each with a stated reason; the author gets a statement of reasons, the notifier the decision, and both can appeal once. Everything is in the audit log."
    >
      <div className="space-y-6">
        <DsaNotices />
        <DsaReportPanel />
      </div>
    </EngagementPage>
  );
}
