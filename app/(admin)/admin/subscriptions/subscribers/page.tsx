import type { Metadata } from "next";

import { SubscribersBrowser } from "@/components/subscriptions/subscribers-browser";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Subscribers" };

export default function SubscribersPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/subscribers"
      title="Subscribers"
      description="Readers of the publication as subscribers: one record per person, with every identity they are known by and their subscriber metadata."
    >
      <SubscribersBrowser />
    </AdminPage>
  );
}
