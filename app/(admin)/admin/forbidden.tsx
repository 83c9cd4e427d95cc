import type { Metadata } from "next";

import { StatusMessage } from "@/components/ui";

export const metadata: Metadata = { title: "No access" };

/**
 * A 403 inside the dashboard's frame (navigation kept): a page whose roles the signed-in user
 * lacks (requireAdmin calls forbidden()). The navigation lists what they can open.
 */
export default function AdminForbidden() {
  return (
    <StatusMessage status={403} title={"You don't have access to this page"} className="py-12" testId="admin-forbidden">
      Your roles do not include this part of the dashboard. The navigation has every part you can open; if you need this
      one, ask an owner of your publication to give you the role.
    </StatusMessage>
  );
}
