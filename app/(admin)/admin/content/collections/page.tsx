import type { Metadata } from "next";

import { CollectionList } from "@/components/content/organise/collection-list";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Collections" };

export default function CollectionsPage() {
  return (
    <ContentPage
      section="collections"
      title="Collections"
      description="Lists of stories and collections that front ends lay out: manual ones ordered by hand, automated ones chosen by rules. Every change is sent to webhooks as collection-update."
    >
      <CollectionList />
    </ContentPage>
  );
}
