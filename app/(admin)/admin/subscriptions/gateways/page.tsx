import type { Metadata } from "next";

import { PaymentGatewayManager } from "@/components/subscriptions/payment-gateways-manager";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Payment gateways" };

export default function PaymentGatewaysPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/gateways"
      eyebrow="Subscriptions"
      title="Payment gateways"
      description="The gateways readers pay through: their keys (secrets are stored encrypted and never shown again) and the webhook URL to give each gateway."
    >
      <PaymentGatewayManager />
    </AdminPage>
  );
}
