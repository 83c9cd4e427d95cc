import type { Metadata } from "next";

import { CardLink } from "@/components/members/card-link";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Update your card", robots: { index: false }, referrer: "no-referrer" };

/** /member/card/<token>: a signed "update your card" link's page (docs/subscriptions.md "Dunning"). */
export default async function CardLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <main id="main" className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6 sm:py-10">
      <h1 className="text-xl font-semibold text-gray-900">Update your card</h1>
      <p className="mt-1 text-sm text-gray-600">Give the card your subscription is charged to from now on.</p>
      <div className="mt-6">
        <CardLink token={token} />
      </div>
    </main>
  );
}
