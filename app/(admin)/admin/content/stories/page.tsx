import type { Metadata } from "next";
import { Suspense } from "react";

import { StoryList } from "@/components/content/stories/story-list";
import { ButtonLink } from "@/components/ui";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Stories" };

export default function StoriesPage() {
  return (
    <ContentPage
      section="stories"
      title="Stories"
      description="Write stories and move them through the workflow: draft, submitted, approved, published. Every move notifies the subscribed webhooks."
      actions={
        <ButtonLink href="/admin/content/stories/new" variant="primary">
          New story
        </ButtonLink>
      }
    >
      {/* The list reads its filters from the URL (useSearchParams). */}
      <Suspense>
        <StoryList />
      </Suspense>
    </ContentPage>
  );
}
