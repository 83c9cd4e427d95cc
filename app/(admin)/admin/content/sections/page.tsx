import type { Metadata } from "next";

import { SectionManager } from "@/components/content/organise/section-manager";

import { ContentPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Sections" };

export default function SectionsPage() {
  return (
    <ContentPage
      section="sections"
      title="Sections"
      description="The publication's sections and their hierarchy. Each section has an automated collection of its stories (section-<slug>) that front ends use for section pages."
    >
      <SectionManager />
    </ContentPage>
  );
}
