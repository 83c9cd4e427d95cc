import type { Metadata } from "next";

import { ButtonLink } from "@/components/ui";

export const metadata: Metadata = { title: "No access" };

/** Rendered with status 403 when a page calls forbidden() (requireAdmin with roles the user lacks). */
export default function Forbidden() {
  return (
    <main className="flex min-h-screen items-center justify-center px-6 py-16">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-brand-700">403</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-gray-900">
          You don&apos;t have access to this page
        </h1>
        <p className="mt-3 text-sm text-gray-600">
          Your roles do not include this part of the dashboard. If you need it, ask an owner of your publication to give
          you the role.
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <ButtonLink href="/admin" variant="primary" size="lg">
            Back to the overview
          </ButtonLink>
        </div>
      </div>
    </main>
  );
}
