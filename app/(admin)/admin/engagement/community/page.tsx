import type { Metadata } from "next";

import { CommunityReaders } from "@/components/engagement/community-readers";

import { EngagementPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Community" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** `?q=` prefills the search (a link from the moderation queue's history names `#<member id>`). */
export default async function CommunityPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).q;
  const initialQuery = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 200) ?? "";
  return (
    <EngagementPage
      section="community"
      title="Community"
      description="Every reader of the publication: find one, see their comments and history, warn, suspend or ban them, and reject their comments in one step. Everything is in the audit log."
    >
      <CommunityReaders initialQuery={initialQuery} />
    </EngagementPage>
  );
}
