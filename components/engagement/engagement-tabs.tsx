/** Tabs between the engagement screens (the moderation queue, the community, the moderation settings, scoring). */
import { TabNav } from "@/components/ui";

const ENGAGEMENT_SECTIONS = [
  { key: "moderation", label: "Moderation queue" },
  { key: "community", label: "Community" },
  { key: "dsa", label: "Illegal-content notices" },
  { key: "settings", label: "Moderation settings" },
  { key: "scoring", label: "Scoring" },
] as const;

export function EngagementTabs({ current }: { current: (typeof ENGAGEMENT_SECTIONS)[number]["key"] }) {
  return (
    <TabNav
      label="Engagement"
      current={current}
      items={ENGAGEMENT_SECTIONS.map((section) => ({ ...section, href: `/admin/engagement/${section.key}` }))}
    />
  );
}
