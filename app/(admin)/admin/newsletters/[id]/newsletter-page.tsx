import type { ReactNode } from "react";

import { AdminPage, isSerialId } from "../../_lib/admin-page";
import { NewsletterTabs } from "./tabs";

type Tab = "settings" | "subscribers" | "stats";

/** A page of one newsletter (its id in the path): the newsletters area's frame, then its tabs, then the tab's part. */
export async function NewsletterPage({
  params,
  tab,
  title,
  description,
  children,
}: {
  params: Promise<{ id: string }>;
  tab: Tab;
  title: string;
  description?: string;
  /** The tab's part, given the newsletter's id. */
  children: (id: number) => ReactNode;
}) {
  const { id } = await params;
  return (
    <AdminPage
      area="newsletters"
      path={tab === "settings" ? `/admin/newsletters/${id}` : `/admin/newsletters/${id}/${tab}`}
      valid={isSerialId(id)}
      eyebrow="Newsletters"
      title={title}
      description={description}
      back={{ href: "/admin/newsletters", label: "All newsletters" }}
    >
      <NewsletterTabs id={id} current={tab} />
      {children(Number(id))}
    </AdminPage>
  );
}
