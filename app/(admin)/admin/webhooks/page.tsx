import type { Metadata } from "next";

import { WebhookList } from "@/components/webhooks/webhook-list";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <AdminPage
      area="webhooks"
      title="Webhooks"
      description="Endpoints that receive content workflow and subscription events, signed with HMAC-SHA256. Failed deliveries are retried; every attempt is logged for 30 days."
    >
      <WebhookList />
    </AdminPage>
  );
}
