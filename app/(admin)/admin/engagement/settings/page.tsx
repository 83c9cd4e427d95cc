import type { Metadata } from "next";

import { EngagementTabs } from "@/components/engagement/engagement-tabs";
import { ModerationSettingsForm } from "@/components/engagement/moderation-settings-form";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Moderation settings" };

export default function ModerationSettingsPage() {
  return (
    <AdminPage
      area="engagement"
      path="/admin/engagement/settings"
      eyebrow="Engagement"
      title="Moderation settings"
      description="How this publication's comments are moderated. Every change is in the audit log."
    >
      <EngagementTabs current="settings" />
      <ModerationSettingsForm />
    </AdminPage>
  );
}
