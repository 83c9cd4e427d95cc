import type { Metadata } from "next";

import { CouponManager } from "@/components/subscriptions/catalogue-managers";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Coupons" };

export default function CouponsPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/coupons"
      eyebrow="Subscriptions"
      title="Coupons"
      description="Percent-off discount codes with validity dates and a limit on uses. Codes are case-insensitive and never reused."
    >
      <CouponManager />
    </AdminPage>
  );
}
