import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { CollectionList } from "@/components/content/organise/collection-list";
import { ContentTabs } from "@/components/content/organise/ui";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Collections" };

const area = getArea("content");

export default async function CollectionsPage() {
  await requireAdmin({ from: `${area.href}/collections`, roles: area.roles });
  return (
    <>
      <PageHeader eyebrow="Content" title="Collections" description="Lists of stories and collections that front ends lay out: manual ones ordered by hand, automated ones chosen by rules. Every change is sent to webhooks as collection-update." />
      <ContentTabs current="collections" />
      <CollectionList />
    </>
  );
}
