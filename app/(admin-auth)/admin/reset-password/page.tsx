import type { Metadata } from "next";

import { ResetPasswordForm } from "@/components/admin/password-forms";
import { Card } from "@/components/ui";

export const metadata: Metadata = {
  title: "Choose a password",
  robots: { index: false },
  // The token is in the URL: never send it to another site as a Referer.
  referrer: "no-referrer",
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Opened from a reset or invitation e-mail: `?token=…` (server/auth/staff-passwords.ts). */
export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).token;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-6 py-12">
      <div className="w-full max-w-sm">
        <div className="text-center">
          <p className="text-2xl font-bold tracking-tight text-gray-900">Masthead</p>
          <h1 className="mt-6 text-lg font-semibold text-gray-900">Choose your password</h1>
          <p className="mt-1 text-sm text-gray-600">For your dashboard account. You then sign in with it.</p>
        </div>
        <Card className="mt-8 p-6">
          <ResetPasswordForm token={token.slice(0, 200)} />
        </Card>
      </div>
    </main>
  );
}
