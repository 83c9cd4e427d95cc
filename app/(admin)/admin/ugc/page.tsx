import type { Metadata } from "next";

import { UgcReview } from "@/components/engagement/ugc-review";

import { AdminPage } from "../_lib/admin-page";

export const metadata: Metadata = { title: "Reader submissions" };

export default function UgcPage() {
  return (
    <AdminPage
      area="ugc"
      eyebrow="Engagement"
      title="Reader submissions"
      description="What readers send through the UGC form, newest first. Open one to read it, then approve or reject it; every decision is in the audit log."
    >
      <UgcReview />
    </AdminPage>
  );
}
