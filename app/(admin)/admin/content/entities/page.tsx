import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { EntityManager } from "@/components/content/organise/entity-manager";
import { ContentTabs } from "@/components/content/organise/ui";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Entities" };

const area = getArea("content");

export default async function EntitiesPage() {
  await requireAdmin({ from: `${area.href}/entities`, roles: area.roles });
  return (
    <>
      <PageHeader eyebrow="Content" title="Entities" description="People, places, teams and organisations that stories mention, and the named, ranked relationships between them (e.g. a team's players)." />
      <ContentTabs current="entities" />
      <EntityManager />
    </>
  );
}
