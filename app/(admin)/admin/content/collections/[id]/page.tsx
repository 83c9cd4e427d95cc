import type { Metadata } from "next";

import { CollectionEditor } from "@/components/content/organise/collection-editor";

import { ContentPage, isSerialId } from "../../../_lib/admin-page";

export const metadata: Metadata = { title: "Collection" };

export default async function CollectionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <ContentPage
      section="collections"
      path={`/admin/content/collections/${id}`}
      valid={isSerialId(id)}
      title="Edit collection"
    >
      <CollectionEditor id={Number(id)} />
    </ContentPage>
  );
}
