import type { Metadata } from "next";
import Link from "next/link";

import { PageHeader } from "@/components/admin/page-header";
import { StoryEditor } from "@/components/content/stories/story-editor";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../../_lib/areas";

export const metadata: Metadata = { title: "New story" };

const area = getArea("content");

export default async function NewStoryPage() {
  await requireAdmin({ from: `${area.href}/stories/new`, roles: area.roles });
  return (
    <>
      <PageHeader
        eyebrow="Stories"
        title="New story"
        actions={
          <Link href="/admin/content/stories" className="text-sm font-medium text-brand-700 hover:underline">
            All stories
          </Link>
        }
      />
      <StoryEditor />
    </>
  );
}
