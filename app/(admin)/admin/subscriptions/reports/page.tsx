import type { Metadata } from "next";

import { ExportLink } from "@/components/subscriptions/export-link";
import { RevenueCharts } from "@/components/subscriptions/revenue-charts";
import { RevenueMetrics } from "@/components/subscriptions/revenue-metrics";

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
      description="MRR, ARR, churn rate, ARPU and trial conversion over the last 12 months and per plan; subscriptions, revenue, revenue recovered or lost after failed charges, and the paywall meter's conversion per day of the account's time zone, for a range of up to 366 days."
    >
      <div className="min-w-0 space-y-6">
        <RevenueMetrics />
        <RevenueCharts />
      </div>
    </AdminPage>
  );
}
