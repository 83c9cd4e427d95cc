import type { Metadata } from "next";

import { TagManager } from "@/components/content/organise/tag-manager";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Tags" };

export default function TagsPage() {
  return (
    <ContentPage
      section="tags"
      title="Tags"
      description="Tags group stories across sections. Renaming a tag renames it on every story; deleting it takes it off them."
    >
      <TagManager />
    </ContentPage>
  );
}
