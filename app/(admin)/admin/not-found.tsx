import type { Metadata } from "next";

import { ButtonLink } from "@/components/ui";

export const metadata: Metadata = { title: "Page not found" };

/**
 * A 404 inside the dashboard's frame (navigation kept): unknown paths under /admin (the catch-all
 * ../[...area] calls notFound() once the visitor is signed in) and ids no page has.
 */
export default function AdminNotFound() {
  return (
    <div className="py-12 text-center" data-testid="admin-not-found">
      <p className="text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-gray-900">This page does not exist</h1>
      <p className="mx-auto mt-3 max-w-md text-sm text-gray-600">
        The address may be mistyped, or what it showed was deleted. The navigation has every part of the dashboard you
        can open.
      </p>
      <div className="mt-6 flex justify-center">
        <ButtonLink href="/admin" variant="primary" size="lg">
          Back to the overview
        </ButtonLink>
      </div>
    </div>
  );
}
