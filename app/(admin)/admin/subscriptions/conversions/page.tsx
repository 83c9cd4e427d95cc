import type { Metadata } from "next";

import { StoryConversions } from "@/components/subscriptions/story-conversions";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Conversions" };

export default function ConversionsPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/conversions"
      eyebrow="Subscriptions"
      title="Conversions"
      description="Which stories convert: readers who hit a story's wall, and of them who registered, started a trial or a paid subscription within 24 hours (the last wall they hit gets it), with the revenue of those subscriptions' first 30 days; per day of the account's time zone and per story, section, author or tag."
    >
      <StoryConversions />
    </AdminPage>
  );
}
