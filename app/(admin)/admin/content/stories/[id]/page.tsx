import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";

import { PageHeader } from "@/components/admin/page-header";
import { StoryEditor } from "@/components/content/stories/story-editor";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../../_lib/areas";

export const metadata: Metadata = { title: "Story" };

const area = getArea("content");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function StoryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireAdmin({ from: `${area.href}/stories/${encodeURIComponent(id)}`, roles: area.roles });
  if (!UUID.test(id)) notFound();
  return (
    <>
      <PageHeader
        eyebrow="Stories"
        title="Edit story"
        actions={
          <Link href="/admin/content/stories" className="text-sm font-medium text-brand-700 hover:underline">
            All stories
          </Link>
        }
      />
      <StoryEditor id={id} />
    </>
  );
}
