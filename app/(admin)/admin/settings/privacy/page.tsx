import type { Metadata } from "next";

import { PrivacySettingsForm } from "@/components/settings/privacy-settings-form";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Privacy" };

export default function PrivacyPage() {
  return (
    <AdminPage
      area="settings"
      path="/admin/settings/privacy"
      eyebrow="Settings"
      title="Privacy"
      description="How long readers' IP addresses, delivery logs and deleted comments are kept, and what erasing a reader does with their comments (docs/privacy.md)."
      back={{ href: "/admin/settings", label: "All settings" }}
    >
      <PrivacySettingsForm />
    </AdminPage>
  );
}
