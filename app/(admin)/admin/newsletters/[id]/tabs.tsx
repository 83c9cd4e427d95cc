import { TabNav } from "@/components/ui";

/** Settings and Subscribers of one newsletter. */
export function NewsletterTabs({ id, current }: { id: string; current: "settings" | "subscribers" }) {
  return (
    <TabNav
      label="Newsletter"
      current={current}
      items={[
        { key: "settings", label: "Settings", href: `/admin/newsletters/${id}` },
        { key: "subscribers", label: "Subscribers", href: `/admin/newsletters/${id}/subscribers` },
      ]}
    />
  );
}
