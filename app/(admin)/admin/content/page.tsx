import type { Metadata } from "next";

import { LinkCards } from "@/components/ui";

import { AdminPage } from "../_lib/admin-page";
import { getArea } from "../_lib/areas";

export const metadata: Metadata = { title: "Content" };

const area = getArea("content");

/** The content area's index: one entry per section (stories, collections, authors, sections, tags, entities). */
export default function ContentPage() {
  return (
    <AdminPage area="content" title={area.label} description={area.summary}>
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
