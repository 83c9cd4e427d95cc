import type { Metadata } from "next";

import { SubscriberList } from "@/components/newsletters/subscriber-list";

import { AdminPage, isSerialId } from "../../../_lib/admin-page";
import { NewsletterTabs } from "../tabs";

export const metadata: Metadata = { title: "Newsletter subscribers" };

export default async function NewsletterSubscribersPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <AdminPage
      area="newsletters"
      path={`/admin/newsletters/${id}/subscribers`}
      valid={isSerialId(id)}
      eyebrow="Newsletters"
      title="Subscribers"
      back={{ href: "/admin/newsletters", label: "All newsletters" }}
    >
      <NewsletterTabs id={id} current="subscribers" />
      <SubscriberList newsletterId={Number(id)} />
    </AdminPage>
  );
}
