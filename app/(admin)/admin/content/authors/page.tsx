import type { Metadata } from "next";

import { PageHeader } from "@/components/admin/page-header";
import { AuthorManager } from "@/components/content/organise/author-manager";
import { ContentTabs } from "@/components/content/organise/ui";
import { requireAdmin } from "@/server/auth/next-auth";

import { getArea } from "../../_lib/areas";

export const metadata: Metadata = { title: "Authors" };

const area = getArea("content");

export default async function AuthorsPage() {
  await requireAdmin({ from: `${area.href}/authors`, roles: area.roles });
  return (
    <>
      <PageHeader eyebrow="Content" title="Authors" description="Bylines: name, slug, bio, avatar and Twitter handle, as the authors API returns them. An author with stories cannot be deleted." />
      <ContentTabs current="authors" />
      <AuthorManager />
    </>
  );
}
