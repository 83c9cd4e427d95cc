import type { Metadata } from "next";

import { EntityManager } from "@/components/content/organise/entity-manager";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Entities" };

export default function EntitiesPage() {
  return (
    <ContentPage
      section="entities"
      title="Entities"
      description="People, places, teams and organisations that stories mention, and the named, ranked relationships between them (e.g. a team's players)."
    >
      <EntityManager />
    </ContentPage>
  );
}
