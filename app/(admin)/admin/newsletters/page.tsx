import type { Metadata } from "next";

import { NewsletterList } from "@/components/newsletters/newsletter-list";
import { TextLink } from "@/components/ui";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Newsletters" };

export default function NewslettersPage() {
  return (
    <AdminPage
      area="newsletters"
      title="Newsletters"
      description="What readers subscribe to by e-mail: each newsletter's sender, design, audience and digest, and who receives it."
      actions={
        <TextLink href="/admin/newsletters/sends" className="text-sm">
          All sends
        </TextLink>
      }
    >
      <NewsletterList />
    </AdminPage>
  );
}
