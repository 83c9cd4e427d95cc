/** Tabs between the engagement screens (the moderation queue, the moderation settings). */
import { TabNav } from "@/components/ui";

const ENGAGEMENT_SECTIONS = [
  { key: "moderation", label: "Moderation queue" },
  { key: "settings", label: "Moderation settings" },
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
