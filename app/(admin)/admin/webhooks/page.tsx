import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { WebhookList } from "@/components/webhooks/webhook-list";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../_lib/areas";

export const metadata: Metadata = { title: "Webhooks" };

const area = getArea("webhooks");

export default async function WebhooksPage() {
  await requireAdmin({ from: area.href, roles: area.roles });
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive content workflow and subscription events, signed with HMAC-SHA256. Failed deliveries are retried; every attempt is logged for 30 days."
      />
      <WebhookList />
    </>
  );
}
