import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "No access" };

/** Rendered with status 403 when a page calls forbidden() (requireAdmin with roles the user lacks). */
export default function Forbidden() {
  return (
    <main className="flex min-h-screen items-center justify-center px-6 py-16">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-brand-700">403</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-gray-900">You don&apos;t have access to this page</h1>
        <p className="mt-3 text-sm text-gray-600">
          Your roles do not include this part of the dashboard. If you need it, ask an owner of your publication to give you the role.
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <Link
            href="/admin"
            className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2"
          >
            Back to the overview
          </Link>
        </div>
      </div>
    </main>
  );
}
