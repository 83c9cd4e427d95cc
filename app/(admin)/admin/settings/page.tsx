import type { Metadata } from "next";

import { AmpCallsPanel } from "@/components/settings/amp-calls-panel";
import { LoginProviders } from "@/components/settings/login-providers";
import { SettingsForm } from "@/components/settings/settings-form";
import { LinkCards } from "@/components/ui";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <AdminPage
      area="settings"
      title="Settings"
      description="What the publication's website and apps are built from: the site's address and domains, images, logo, menu, search-engine defaults and language. Every change is in the audit log and goes to the webhooks subscribed to configuration changes."
    >
      <div className="space-y-6">
        <LinkCards
          items={[
            {
              href: "/admin/settings/languages",
              title: "Languages",
              description:
                "The languages readers are offered, the default, and your own words for any message they see.",
            },
            {
              href: "/admin/settings/privacy",
              title: "Privacy",
              description:
                "How long IP addresses, delivery logs and deleted comments are kept, and what erasure does with a reader's comments.",
            },
          ]}
        />
        <SettingsForm />
        <LoginProviders />
        <AmpCallsPanel />
      </div>
    </AdminPage>
  );
}
