import type { Metadata } from "next";

import { CouponManager } from "@/components/subscriptions/coupon-manager";

import { AdminPage } from "../../_lib/admin-page";

export const metadata: Metadata = { title: "Coupons" };

export default function CouponsPage() {
  return (
    <AdminPage
      area="subscriptions"
      path="/admin/subscriptions/coupons"
      eyebrow="Subscriptions"
      title="Coupons"
      description="Discount codes, percent or a fixed amount, with validity dates, limits on uses and the plans or groups they are for. Codes are case-insensitive and never reused."
    >
      <CouponManager />
    </AdminPage>
  );
}
