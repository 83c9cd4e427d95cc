import type { Metadata } from "next";

import { EngagementTabs } from "@/components/engagement/engagement-tabs";
import { ModerationQueue } from "@/components/engagement/moderation-queue";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Moderation queue" };

export default function ModerationQueuePage() {
  return (
    <AdminPage
      area="engagement"
      path="/admin/engagement/moderation"
      eyebrow="Engagement"
      title="Moderation queue"
      description="Comments waiting for a decision: held by moderation, reported by readers, spam, or toxic. Press ? for the keyboard shortcuts."
    >
      <EngagementTabs current="moderation" />
      <ModerationQueue />
    </AdminPage>
  );
}
