import type { Metadata } from "next";

import { TaxRuleManager } from "@/components/subscriptions/tax-rule-manager";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Tax rules" };

export default function TaxRulesPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/taxes"
      eyebrow="Subscriptions"
      title="Tax rules"
      description="Taxes charged on sales: a rate, where it applies, and whether plan prices already include it."
    >
      <TaxRuleManager />
    </AdminPage>
  );
}
