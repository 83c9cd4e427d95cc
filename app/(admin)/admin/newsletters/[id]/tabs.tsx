import { TabNav } from "@/components/ui";

/** Settings, Subscribers and Stats of one newsletter. */
export function NewsletterTabs({ id, current }: { id: string; current: "settings" | "subscribers" | "stats" }) {
  return (
    <TabNav
      label="Newsletter"
      current={current}
      items={[
        { key: "settings", label: "Settings", href: `/admin/newsletters/${id}` },
        { key: "subscribers", label: "Subscribers", href: `/admin/newsletters/${id}/subscribers` },
        { key: "stats", label: "Stats", href: `/admin/newsletters/${id}/stats` },
      ]}
    />
  );
}
