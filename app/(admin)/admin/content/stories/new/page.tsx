import type { Metadata } from "next";

import { FileUploadLimit } from "@/components/content/file-upload";
import { StoryEditor } from "@/components/content/stories/story-editor";
import { getEnv } from "@/env.js";

import { AdminPage } from "../../../_lib/admin-page";

export const metadata: Metadata = { title: "New story" };

export default function NewStoryPage() {
  return (
    <AdminPage
      area="content"
      section="stories"
      path="/admin/content/stories/new"
      eyebrow="Stories"
      title="New story"
      back={{ href: "/admin/content/stories", label: "All stories" }}
    >
      <FileUploadLimit maxBytes={getEnv().FILE_UPLOAD_MAX_BYTES}>
        <StoryEditor />
      </FileUploadLimit>
    </AdminPage>
  );
}
