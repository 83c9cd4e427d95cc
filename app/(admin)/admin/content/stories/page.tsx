import type { Metadata } from "next";
import { Suspense } from "react";

import { StoryList } from "@/components/content/stories/story-list";
import { ButtonLink } from "@/components/ui";
import { getAdminSession } from "@/server/auth/next-auth";
import { hasAnyRole } from "@/server/auth/roles";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Stories" };

export default async function StoriesPage() {
  // Contributors write; acting on many stories at once is the editors'.
  const roles = (await getAdminSession())?.user.roles ?? [];
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
        <StoryList bulkActions={hasAnyRole(roles, ["EDITOR"])} />
      </Suspense>
    </ContentPage>
  );
}
