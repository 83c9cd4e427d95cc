import type { Metadata } from "next";

import { ExportLink } from "@/components/subscriptions/export-link";
import { RevenueCharts } from "@/components/subscriptions/revenue-charts";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Reports" };

export default function RevenueReportsPage() {
  return (
    <AdminPage
      area="subscriptions"
      actions={<ExportLink kind="payments" />}
      path="/admin/subscriptions/reports"
      eyebrow="Subscriptions"
      title="Reports"
      description="Subscriptions, revenue, revenue recovered or lost after failed charges, and the paywall meter's conversion per UTC day, for a range of up to 366 days."
    >
      <RevenueCharts />
    </AdminPage>
  );
}
