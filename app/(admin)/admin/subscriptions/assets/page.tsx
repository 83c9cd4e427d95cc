import type { Metadata } from "next";

import { AssetManager } from "@/components/subscriptions/revenue-managers";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Assets" };

export default function AssetsPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/assets"
      eyebrow="Subscriptions"
      title="Assets"
      description="What a subscription grants: the whole site, a static area, or the stories of an access level. Groups and plans name them on the Plans and Campaigns pages."
    >
      <AssetManager />
    </AdminPage>
  );
}
