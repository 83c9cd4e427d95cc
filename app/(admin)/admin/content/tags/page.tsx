import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { TagManager } from "@/components/content/organise/tag-manager";
import { ContentTabs } from "@/components/content/organise/ui";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Tags" };

const area = getArea("content");

export default async function TagsPage() {
  await requireAdmin({ from: `${area.href}/tags`, roles: area.roles });
  return (
    <>
      <PageHeader eyebrow="Content" title="Tags" description="Tags group stories across sections. Renaming a tag renames it on every story; deleting it takes it off them." />
      <ContentTabs current="tags" />
      <TagManager />
    </>
  );
}
