import type { Metadata } from "next";

import { ForgotPasswordForm } from "@/components/admin/password-forms";
import { Card } from "@/components/ui";

export const metadata: Metadata = { title: "Forgot password", robots: { index: false } };

export default function ForgotPasswordPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-6 py-12">
      <div className="w-full max-w-sm">
        <div className="text-center">
          <p className="text-2xl font-bold tracking-tight text-gray-900">Masthead</p>
          <h1 className="mt-6 text-lg font-semibold text-gray-900">Forgot your password?</h1>
          <p className="mt-1 text-sm text-gray-600">
            Give the e-mail you sign in with: we send a link to choose a new password, valid for one hour.
          </p>
        </div>
        <Card className="mt-8 p-6">
          <ForgotPasswordForm />
        </Card>
      </div>
    </main>
  );
}
