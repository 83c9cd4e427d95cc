import type { Metadata } from "next";

import { SendList } from "@/components/newsletters/sends/send-list";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Newsletter sends" };

export default function NewsletterSendsPage() {
  return (
    <AdminPage
      area="newsletters"
      path="/admin/newsletters/sends"
      eyebrow="Newsletters"
      title="Sends"
      description="Every story and digest sent as a newsletter, newest first: its state, its recipients, how many mails left and failed. A running send can be stopped."
      back={{ href: "/admin/newsletters", label: "All newsletters" }}
    >
      <SendList />
    </AdminPage>
  );
}
