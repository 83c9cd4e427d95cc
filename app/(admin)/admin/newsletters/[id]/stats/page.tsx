import type { Metadata } from "next";

import { NewsletterStats } from "@/components/newsletter-stats/newsletter-stats";

import { AdminPage, isSerialId } from "../../../_lib/admin-page";
import { NewsletterTabs } from "../tabs";

export const metadata: Metadata = { title: "Newsletter stats" };

export default async function NewsletterStatsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <AdminPage
      area="newsletters"
      path={`/admin/newsletters/${id}/stats`}
      valid={isSerialId(id)}
      eyebrow="Newsletters"
      title="Stats"
      description="What the newsletter's sends reached: delivered, opened, clicked, unsubscribes and subscriptions started, and its subscribers by day."
      back={{ href: "/admin/newsletters", label: "All newsletters" }}
    >
      <NewsletterTabs id={id} current="stats" />
      <NewsletterStats newsletterId={Number(id)} />
    </AdminPage>
  );
}
