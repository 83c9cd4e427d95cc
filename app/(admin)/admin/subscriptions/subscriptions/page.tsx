import type { Metadata } from "next";

import { ExportLink } from "@/components/subscriptions/export-link";
import { SubscriptionsBrowser } from "@/components/subscriptions/subscriptions-browser";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Subscriptions" };

export default function SubscriptionsListPage() {
  return (
    <AdminPage
      area="subscriptions"
      actions={<ExportLink kind="subscriptions" />}
      path="/admin/subscriptions/subscriptions"
      title="Subscriptions"
      description="Every subscription readers hold: find one by its subscriber, see its payments and history, cancel it at period end or extend it."
    >
      <SubscriptionsBrowser />
    </AdminPage>
  );
}
