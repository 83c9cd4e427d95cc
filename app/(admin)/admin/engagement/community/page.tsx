import type { Metadata } from "next";

import { CommunityReaders } from "@/components/engagement/community-readers";
import { EngagementTabs } from "@/components/engagement/engagement-tabs";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Community" };

export default function CommunityPage() {
  return (
    <AdminPage
      area="engagement"
      path="/admin/engagement/community"
      eyebrow="Engagement"
      title="Community"
      description="Every reader of the publication: find one, see their comments and history, warn, suspend or ban them, and reject their comments in one step. Everything is in the audit log."
    >
      <EngagementTabs current="community" />
      <CommunityReaders />
    </AdminPage>
  );
}
