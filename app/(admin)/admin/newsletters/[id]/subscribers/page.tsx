import type { Metadata } from "next";

import { SubscriberList } from "@/components/newsletters/subscriber-list";

import { NewsletterPage } from "../newsletter-page";

export const metadata: Metadata = { title: "Newsletter subscribers" };

export default function NewsletterSubscribersPage({ params }: { params: Promise<{ id: string }> }) {
  return (
    <NewsletterPage params={params} tab="subscribers" title="Subscribers">
      {(id) => <SubscriberList newsletterId={id} />}
    </NewsletterPage>
  );
}
