import type { Metadata } from "next";

import { AuthorManager } from "@/components/content/organise/author-manager";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Authors" };

export default function AuthorsPage() {
  return (
    <ContentPage
      section="authors"
      title="Authors"
      description="Bylines: name, slug, bio, avatar and Twitter handle, as the authors API returns them. An author with stories cannot be deleted."
    >
      <AuthorManager />
    </ContentPage>
  );
}
