import type { Metadata } from "next";

import { GroupManager, PlanManager } from "@/components/subscriptions/catalogue-managers";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Plans" };

export default function PlansPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/plans"
      eyebrow="Subscriptions"
      title="Plans"
      description="What readers can buy: subscription groups (standard, campaign, group access…) and their plans. Public groups and plans on sale are listed to readers at once."
    >
      <div className="grid gap-6">
        <GroupManager />
        <PlanManager />
      </div>
    </AdminPage>
  );
}
