import type { Metadata } from "next";

import { ScoringPanel } from "@/components/engagement/scoring-panel";
import { getAdminSession } from "@/server/auth/next-auth";

import { EngagementPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Scoring" };

export default async function ScoringPage() {
  // EngagementPage checks the area's roles; owners alone promote or discard a shadow.
  const isOwner = (await getAdminSession())?.user.roles.includes("OWNER") ?? false;
  return (
    <EngagementPage
      section="scoring"
      title="Scoring"
      description="How comments are scored: the adaptive layer, the external scorer, and a configuration tried in shadow before it goes live. Every change is in the audit log."
    >
      <ScoringPanel isOwner={isOwner} />
    </EngagementPage>
  );
}
