import type { Metadata } from "next";

import { RetentionOfferForm } from "@/components/subscriptions/retention-offer-form";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Retention offer" };

export default function RetentionOfferPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/retention"
      eyebrow="Subscriptions"
      title="Retention offer"
      description="What the self-service page offers a reader who cancels, and why readers cancelled."
    >
      <RetentionOfferForm />
    </AdminPage>
  );
}
