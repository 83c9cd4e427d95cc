import type { Metadata } from "next";

import { WebhookDetail } from "@/components/webhooks/webhook-detail";

import { AdminPage, isUuid } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Webhook" };

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <AdminPage
      area="webhooks"
      path={`/admin/webhooks/${id}`}
      valid={isUuid(id)}
      eyebrow="Webhooks"
      title="Webhook"
      back={{ href: "/admin/webhooks", label: "All webhooks" }}
    >
      <WebhookDetail id={id} />
    </AdminPage>
  );
}
