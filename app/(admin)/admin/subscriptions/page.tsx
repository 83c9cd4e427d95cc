import type { Metadata } from "next";

import { AreaIndex } from "../_lib/area-index";

export const metadata: Metadata = { title: "Subscriptions" };

/**
 * The subscriptions area's index: plans, subscribers, coupons and tax rules are built; invoices
 * and campaigns still lead to their "not built yet" pages (the area stays `built: false` for them).
 */
export default function SubscriptionsPage() {
  return <AreaIndex area="subscriptions" />;
}
