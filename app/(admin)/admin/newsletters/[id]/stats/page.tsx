import type { Metadata } from "next";

import { NewsletterStats } from "@/components/newsletter-stats/newsletter-stats";

import { NewsletterPage } from "../newsletter-page";

export const metadata: Metadata = { title: "Newsletter stats" };

export default function NewsletterStatsPage({ params }: { params: Promise<{ id: string }> }) {
  return (
    <NewsletterPage
      params={params}
      tab="stats"
      title="Stats"
      description="What the newsletter's sends reached: delivered, opened, clicked, unsubscribes and subscriptions started, and its subscribers by day."
    >
      {(id) => <NewsletterStats newsletterId={id} />}
    </NewsletterPage>
  );
}
