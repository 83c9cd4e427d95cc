import type { Metadata } from "next";

import { RevenueHeadlines } from "@/components/subscriptions/revenue-charts";

import { AreaIndex } from "../_lib/area-index";

export const metadata: Metadata = { title: "Subscriptions" };

/**
 * The subscriptions area's index: a card per section (every one is built), with this month's
 * headline numbers above them (revenue.headlines).
 */
export default function SubscriptionsPage() {
  return <AreaIndex area="subscriptions" lead={<RevenueHeadlines />} />;
}
