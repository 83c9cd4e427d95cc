import type { Metadata } from "next";

import { LanguagesSettings } from "@/components/settings/languages-page";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Languages" };

export default function LanguagesPage() {
  return (
    <AdminPage
      area="settings"
      path="/admin/settings/languages"
      eyebrow="Settings"
      title="Languages"
      description="The languages readers get the widgets, member pages, paywall and mail in, and your own words for any of their messages."
      back={{ href: "/admin/settings", label: "All settings" }}
    >
      <LanguagesSettings />
    </AdminPage>
  );
}
