import type { Metadata } from "next";

import { FileUploadLimit } from "@/components/content/file-upload";
import { StoryEditor } from "@/components/content/stories/story-editor";
import { getEnv } from "@/env.js";

import { AdminPage, isUuid } from "../../../_lib/admin-page";

export const metadata: Metadata = { title: "Story" };

export default async function StoryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <AdminPage
      area="content"
      section="stories"
      path={`/admin/content/stories/${encodeURIComponent(id)}`}
      valid={isUuid(id)}
      eyebrow="Stories"
      title="Edit story"
      back={{ href: "/admin/content/stories", label: "All stories" }}
    >
      <FileUploadLimit maxBytes={getEnv().FILE_UPLOAD_MAX_BYTES}>
        <StoryEditor id={id} />
      </FileUploadLimit>
    </AdminPage>
  );
}
