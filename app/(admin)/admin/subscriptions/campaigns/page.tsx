import type { Metadata } from "next";

import { CampaignManager } from "@/components/subscriptions/revenue-managers";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Campaigns" };

export default function CampaignsPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/campaigns"
      eyebrow="Subscriptions"
      title="Campaigns"
      description="Groups that collect contributions towards a target, with what they have collected so far. Their contribution plans are added on the Plans page."
    >
      <CampaignManager />
    </AdminPage>
  );
}
