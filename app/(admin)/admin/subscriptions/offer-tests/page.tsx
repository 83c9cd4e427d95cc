import type { Metadata } from "next";

import { OfferTests } from "@/components/subscriptions/offer-tests";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Offer tests" };

export default function OfferTestsPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/offer-tests"
      eyebrow="Subscriptions"
      title="Offer tests"
      description="A/B tests of two paywall offers: each reader always sees the same one. A test stops when an owner stops it, or by itself when one offer is clearly worse."
    >
      <OfferTests />
    </AdminPage>
  );
}
