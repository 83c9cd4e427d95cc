import type { Metadata } from "next";

import { NewsletterEditor } from "@/components/newsletters/newsletter-editor";

import { AdminPage, isSerialId } from "../../_lib/admin-page";
import { NewsletterTabs } from "./tabs";

export const metadata: Metadata = { title: "Newsletter" };

export default async function NewsletterPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <AdminPage
      area="newsletters"
      path={`/admin/newsletters/${id}`}
      valid={isSerialId(id)}
      eyebrow="Newsletters"
      title="Newsletter"
      back={{ href: "/admin/newsletters", label: "All newsletters" }}
    >
      <NewsletterTabs id={id} current="settings" />
      <NewsletterEditor id={Number(id)} />
    </AdminPage>
  );
}
