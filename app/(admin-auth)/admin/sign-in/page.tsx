import type { Metadata } from "next";
import { redirect } from "next/navigation";

import { safeCallbackUrl } from "@/components/admin/safe-callback-url";
import { SignInForm } from "@/components/admin/sign-in-form";
import { Card } from "@/components/ui";
import { getAdminSession } from "@/server/auth/next-auth";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(first(params.callbackUrl));
  if (await getAdminSession()) redirect(callbackUrl);

  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-6 py-12">
      <div className="w-full max-w-sm">
        <div className="text-center">
          <p className="text-2xl font-bold tracking-tight text-gray-900">Masthead</p>
          <h1 className="mt-6 text-lg font-semibold text-gray-900">Sign in to the dashboard</h1>
          <p className="mt-1 text-sm text-gray-600">
            For your publication&apos;s editors, moderators and revenue staff.
          </p>
        </div>
        <Card className="mt-8 p-6">
          {/* `error` arrives here only when next-auth redirected a form posted without JavaScript. */}
          <SignInForm callbackUrl={callbackUrl} initialError={first(params.error)} />
        </Card>
      </div>
    </main>
  );
}
