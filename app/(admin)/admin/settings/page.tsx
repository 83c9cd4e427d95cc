import type { Metadata } from "next";

import { AmpCallsPanel } from "@/components/settings/amp-calls-panel";
import { LoginProviders } from "@/components/settings/login-providers";
import { SettingsForm } from "@/components/settings/settings-form";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <AdminPage
      area="settings"
      title="Settings"
      description="What front ends load from GET /api/v1/config: the site's address and domains, images, logo, menu, SEO defaults and language. Every change is in the audit log and sends the config-update webhook event."
    >
      <div className="space-y-6">
        <SettingsForm />
        <LoginProviders />
        <AmpCallsPanel />
      </div>
    </AdminPage>
  );
}
