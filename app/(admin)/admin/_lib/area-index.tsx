import { LinkCards } from "@/components/ui";

import { AdminPage } from "./admin-page";
import { getArea, type AreaSlug } from "./areas";

/** An area's index page: its role check and header, then one card per section of the area. */
export function AreaIndex({ area: slug }: { area: AreaSlug }) {
  const area = getArea(slug);
  return (
    <AdminPage area={slug} title={area.label} description={area.summary}>
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
