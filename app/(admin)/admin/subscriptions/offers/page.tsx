import type { Metadata } from "next";

import { OffersManager } from "@/components/subscriptions/offers-manager";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Paywall offers" };

export default function PaywallOffersPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/offers"
      eyebrow="Subscriptions"
      title="Paywall offers"
      description="What the paywall offers each kind of reader: plans, price with a coupon, trial and words. The first enabled offer whose readers match, by priority, else the default."
    >
      <OffersManager />
    </AdminPage>
  );
}
