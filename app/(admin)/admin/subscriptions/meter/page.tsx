import type { Metadata } from "next";

import { PaywallMeterForm } from "@/components/subscriptions/paywall-meter-form";
import { PaywallPointSettings } from "@/components/subscriptions/paywall-point-settings";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Paywall meter" };

export default function PaywallMeterPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/meter"
      eyebrow="Subscriptions"
      title="Paywall meter"
      description="How many subscription stories a reader may read free each period before the paywall."
    >
      <PaywallMeterForm />
      <PaywallPointSettings />
    </AdminPage>
  );
}
