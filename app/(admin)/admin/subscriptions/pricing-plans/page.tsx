import type { Metadata } from "next";

import { PricingPlanManager } from "@/components/subscriptions/revenue-managers";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Pay per story" };

export default function PricingPlansPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/pricing-plans"
      eyebrow="Subscriptions"
      title="Pay per story"
      description="Pricing plans that sell one story or collection for a time (or for good), without a subscription."
    >
      <PricingPlanManager />
    </AdminPage>
  );
}
