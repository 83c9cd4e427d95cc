import type { Metadata } from "next";

import { ModerationSettingsForm } from "@/components/engagement/moderation-settings-form";
import { PageRulesPanel } from "@/components/engagement/page-rules-panel";
import { ShiftsSurgesForm } from "@/components/engagement/shifts-surges-form";
import { TextLink } from "@/components/ui";

import { EngagementPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Moderation settings" };

export default function ModerationSettingsPage() {
  return (
    <EngagementPage
      section="settings"
      title="Moderation settings"
      description="How this publication's comments are moderated. Every change is in the audit log."
    >
      <p className="mb-4 text-sm text-gray-600">
        The adaptive layer, the external scorer and trying a configuration in shadow are on the{" "}
        <TextLink href="/admin/engagement/scoring">Scoring</TextLink> page.
      </p>
      <ModerationSettingsForm />
      <div className="mt-6">
        <PageRulesPanel />
      </div>
      <div className="mt-6">
        <ShiftsSurgesForm />
      </div>
    </EngagementPage>
  );
}
