import type { Metadata } from "next";

import { OutboxList } from "@/components/mail/outbox-list";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Outbox" };

export default function MailPage() {
  return (
    <AdminPage
      area="mail"
      title="Outbox"
      description="E-mails Masthead sends to members (password reset links), newest first, with their status and body."
    >
      <OutboxList />
    </AdminPage>
  );
}
