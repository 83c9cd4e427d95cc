import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { PageHeader } from "@/components/admin/page-header";
import { WebhookDetail } from "@/components/webhooks/webhook-detail";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Webhook" };

const area = getArea("webhooks");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAdmin({ from: `${area.href}/${id}`, roles: area.roles });
  if (!UUID.test(id)) notFound();
  return (
    <>
      <PageHeader
        eyebrow="Webhooks"
        title="Webhook"
        actions={
          <Link href="/admin/webhooks" className="text-sm font-medium text-brand-700 hover:underline">
            All webhooks
          </Link>
        }
      />
      <WebhookDetail id={id} />
    </>
  );
}
