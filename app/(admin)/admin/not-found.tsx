import type { Metadata } from "next";

import { StatusMessage } from "@/components/ui";

export const metadata: Metadata = { title: "Page not found" };

/**
 * A 404 inside the dashboard's frame (navigation kept): unknown paths under /admin (the catch-all
 * ../[...area] calls notFound() once the visitor is signed in) and ids no page has.
 */
export default function AdminNotFound() {
  return (
    <StatusMessage status={404} title="This page does not exist" className="py-12" testId="admin-not-found">
      The address may be mistyped, or what it showed was deleted. The navigation has every part of the dashboard you can
      open.
    </StatusMessage>
  );
}
