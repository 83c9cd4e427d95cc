import type { Metadata } from "next";

import { LinkCards } from "@/components/ui";

import { AdminPage } from "../_lib/admin-page";
import { getArea } from "../_lib/areas";

export const metadata: Metadata = { title: "Engagement" };

const area = getArea("engagement");

/** The engagement area's index: the moderation queue and the moderation settings. */
export default function EngagementPage() {
  return (
    <AdminPage area="engagement" title={area.label} description={area.summary}>
      <LinkCards
        items={(area.sections ?? []).map((s) => ({
          href: `${area.href}/${s.slug}`,
          title: s.label,
          description: s.summary,
        }))}
      />
    </AdminPage>
  );
}
