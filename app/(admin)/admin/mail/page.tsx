import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { OutboxList } from "@/components/mail/outbox-list";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../_lib/areas";

export const metadata: Metadata = { title: "Outbox" };

const area = getArea("mail");

export default async function MailPage() {
  await requireAdmin({ from: area.href, roles: area.roles });
  return (
    <>
      <PageHeader
        title="Outbox"
        description="E-mails Masthead sends to members (password reset links), newest first, with their status and body."
      />
      <OutboxList />
    </>
  );
}
