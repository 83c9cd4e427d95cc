import type { Metadata } from "next";

import { AreaIndex } from "../_lib/area-index";

export const metadata: Metadata = { title: "Engagement" };

/** The engagement area's index: the moderation queue and the moderation settings. */
export default function EngagementPage() {
  return <AreaIndex area="engagement" />;
}
