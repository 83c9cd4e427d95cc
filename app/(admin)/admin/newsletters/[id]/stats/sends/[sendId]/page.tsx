import type { Metadata } from "next";

import { SendStats } from "@/components/newsletter-stats/send-stats";

import { AdminPage, isSerialId } from "../../../../../_lib/admin-page";

export const metadata: Metadata = { title: "Send stats" };

export default async function SendStatsPage({ params }: { params: Promise<{ id: string; sendId: string }> }) {
  const { id, sendId } = await params;
  return (
    <AdminPage
      area="newsletters"
      path={`/admin/newsletters/${id}/stats/sends/${sendId}`}
      valid={isSerialId(id) && isSerialId(sendId)}
      eyebrow="Newsletters"
      title="Send stats"
      back={{ href: `/admin/newsletters/${id}/stats`, label: "The newsletter's stats" }}
    >
      <SendStats newsletterId={Number(id)} sendId={Number(sendId)} />
    </AdminPage>
  );
}
