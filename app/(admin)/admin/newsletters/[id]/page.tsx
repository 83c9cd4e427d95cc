import type { Metadata } from "next";

import { NewsletterEditor } from "@/components/newsletters/newsletter-editor";

import { NewsletterPage } from "./newsletter-page";

export const metadata: Metadata = { title: "Newsletter" };

export default function NewsletterSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  return (
    <NewsletterPage params={params} tab="settings" title="Newsletter">
      {(id) => <NewsletterEditor id={id} />}
    </NewsletterPage>
  );
}
