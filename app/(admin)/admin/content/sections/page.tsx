import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { SectionManager } from "@/components/content/organise/section-manager";
import { ContentTabs } from "@/components/content/organise/ui";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Sections" };

const area = getArea("content");

export default async function SectionsPage() {
  await requireAdmin({ from: `${area.href}/sections`, roles: area.roles });
  return (
    <>
      <PageHeader eyebrow="Content" title="Sections" description="The publication's sections and their hierarchy. Each section has an automated collection of its stories (section-<slug>) that front ends use for section pages." />
      <ContentTabs current="sections" />
      <SectionManager />
    </>
  );
}
