import type { ReactNode } from "react";

import { LinkCards } from "@/components/ui";

import { AdminPage } from "./admin-page";
import { getArea, type AreaSlug } from "./areas";

/**
 * An area's index page: its role check and header, then (optionally) what the area shows above its
 * sections (`lead`, e.g. the subscriptions' headline numbers), then one card per section.
 */
export function AreaIndex({ area: slug, lead }: { area: AreaSlug; lead?: ReactNode }) {
  const area = getArea(slug);
  return (
    <AdminPage area={slug} title={area.label} description={area.summary}>
      {lead ? <div className="mb-6">{lead}</div> : null}
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
