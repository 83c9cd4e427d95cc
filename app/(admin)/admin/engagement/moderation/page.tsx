import type { Metadata } from "next";

import { ModerationStatsPanel, SurgesPanel } from "@/components/engagement/moderation-health";
import { ModerationQueue } from "@/components/engagement/moderation-queue";
import { parseQueueSearchParams } from "@/server/engagement/moderation/queue/queue-filters.schema";
import { KNOWN_REASON_CODES, reasonFilterWording } from "@/server/engagement/moderation/queue/reasons";

import { EngagementPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Moderation queue" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ModerationQueuePage({ searchParams }: { searchParams: SearchParams }) {
  const initial = parseQueueSearchParams(await searchParams);
  const reasons = KNOWN_REASON_CODES.map((code) => ({ code, text: reasonFilterWording(code) }));
  return (
    <EngagementPage
      section="moderation"
      title="Moderation queue"
      description="Comments waiting for a decision (held by moderation, reported by readers, spam, or toxic) and the decisions made, which can be changed. Press ? for the keyboard shortcuts."
    >
      <ModerationQueue initial={initial} reasons={reasons} />
      <div className="mt-6 space-y-6">
        <SurgesPanel />
        <ModerationStatsPanel />
      </div>
    </EngagementPage>
  );
}
