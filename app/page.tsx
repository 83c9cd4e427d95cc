import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-4xl font-bold tracking-tight">Masthead</h1>
      <p className="mt-4 text-lg text-gray-600">
        Comments, subscriptions and the publishing content API for one newsroom, in one open-source platform.
      </p>
      <ul className="mt-10 grid gap-4 sm:grid-cols-3">
        <li>
          <Link
            href="/admin"
            className="block rounded-lg border border-gray-200 bg-white p-5 shadow-sm hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            <span className="font-semibold">Dashboard</span>
            <span className="mt-1 block text-sm text-gray-600">For editors, moderators and revenue staff.</span>
          </Link>
        </li>
        <li>
          <Link
            href="/docs/api"
            className="block rounded-lg border border-gray-200 bg-white p-5 shadow-sm hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            <span className="font-semibold">API reference</span>
            <span className="mt-1 block text-sm text-gray-600">
              Every endpoint, generated from its validation schema.
            </span>
          </Link>
        </li>
        <li>
          {/* A JSON endpoint, not a page: a plain link (the lint rule mistakes app/api/[...path] for pages). */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a
            href="/api/health"
            className="block rounded-lg border border-gray-200 bg-white p-5 shadow-sm hover:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
          >
            <span className="font-semibold">Health</span>
            <span className="mt-1 block text-sm text-gray-600">Database and background engine status.</span>
          </a>
        </li>
      </ul>
    </main>
  );
}
