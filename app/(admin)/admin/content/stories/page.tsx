import type { Metadata } from "next";
import Link from "next/link";

import { PageHeader } from "@/components/admin/page-header";
import { ContentTabs } from "@/components/content/organise/ui";
import { StoryList } from "@/components/content/stories/story-list";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Stories" };

const area = getArea("content");

export default async function StoriesPage() {
  await requireAdmin({ from: `${area.href}/stories`, roles: area.roles });
  return (
    <>
      <PageHeader
        eyebrow="Content"
        title="Stories"
        description="Write stories and move them through the workflow: draft, submitted, approved, published. Every move notifies the subscribed webhooks."
        actions={
          <Link
            href="/admin/content/stories/new"
            className="inline-flex items-center justify-center rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2"
          >
            New story
          </Link>
        }
      />
      <ContentTabs current="stories" />
      <StoryList />
    </>
  );
}
