import type { Metadata } from "next";

import { MediaLibrary } from "@/components/content/media/media-library";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Media" };

export default function MediaPage() {
  return (
    <ContentPage
      section="media"
      title="Media"
      description="Every image uploaded for stories, authors and collections: its thumbnail, alt text and where it is used. Unused images can be deleted."
    >
      <MediaLibrary />
    </ContentPage>
  );
}
