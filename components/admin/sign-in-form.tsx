"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import { Alert, Button, FormField, Input, TextLink } from "@/components/ui";
import { signInErrorMessage } from "@/server/auth/sign-in.schema";

function fieldValue(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * E-mail and password, posted through next-auth (which adds its CSRF token). Every refusal shows
 * the server's one message, so the form never tells whether an e-mail has an account.
 */
export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(signInErrorMessage(initialError));
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        redirect: false,
        email: fieldValue(form, "email"),
        password: fieldValue(form, "password"),
        callbackUrl,
      });
      if (result?.ok && !result.error) {
        router.replace(callbackUrl);
        router.refresh();
        return; // stay "pending" while the dashboard loads
      }
      setError(signInErrorMessage(result?.error ?? "SignInUnavailable"));
    } catch {
      setError(signInErrorMessage("SignInUnavailable"));
    }
    setPending(false);
  }

  return (
    <form onSubmit={handleSubmit} className="space-y-5" aria-describedby={error ? "sign-in-error" : undefined}>
      {error ? (
        <Alert tone="error" id="sign-in-error">
          {error}
        </Alert>
      ) : null}
      <FormField id="email" label="E-mail">
        <Input name="email" type="email" autoComplete="username" required autoFocus />
      </FormField>
      <FormField id="password" label="Password">
        <Input name="password" type="password" autoComplete="current-password" required />
      </FormField>
      <Button type="submit" variant="primary" size="lg" className="w-full" loading={pending} loadingText="Signing in…">
        Sign in
      </Button>
      <p className="text-center text-sm">
        <TextLink href="/admin/forgot-password">Forgot password?</TextLink>
      </p>
    </form>
  );
}
