import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { PageHeader } from "@/components/admin/page-header";
import { CollectionEditor } from "@/components/content/organise/collection-editor";
import { ContentTabs } from "@/components/content/organise/ui";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../../_lib/areas";

export const metadata: Metadata = { title: "Collection" };

const area = getArea("content");

export default async function CollectionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAdmin({ from: `${area.href}/collections/${id}`, roles: area.roles });
  if (!/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2_147_483_647) notFound();
  return (
    <>
      <PageHeader eyebrow="Content" title="Edit collection" />
      <ContentTabs current="collections" />
      <CollectionEditor id={Number(id)} />
    </>
  );
}
