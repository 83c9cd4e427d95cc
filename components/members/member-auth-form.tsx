"use client";

/**
 * The member login and sign-up form (app/member/login, app/member/signup): served on the
 * publisher's host, posting to the member API there (/api/auth/v1/login, /api/auth/v1/signup),
 * which sets the session cookie; then the browser goes on to `returnTo` (already made safe by the
 * page: a path on this site). Sign-up is checked with the API's own schema first; the server's
 * `{ field, issue }` problems are shown next to their fields.
 */
import { useState, type FormEvent } from "react";

import { Alert, Button, FormField, Input, TextLink } from "@/components/ui";
import { ZMemberSignupInput } from "@/server/members/members.schema";

type Mode = "login" | "signup";
type Field = "name" | "email" | "password";
type Problems = { message: string | null; fields: Partial<Record<Field, string>> };

const FIELDS: readonly Field[] = ["name", "email", "password"];

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/** The API's error body ({error: {message, details: [{field: "body.email", issue}]}}) split by field. */
function problemsOf(body: unknown, fallback: string): Problems {
  const error = (body as { error?: { message?: unknown; details?: unknown } } | null)?.error;
  const fields: Problems["fields"] = {};
  for (const detail of Array.isArray(error?.details) ? (error.details as { field?: unknown; issue?: unknown }[]) : []) {
    const field = typeof detail.field === "string" ? detail.field.replace(/^body\./, "").split(".")[0] : "";
    if (FIELDS.includes(field as Field) && typeof detail.issue === "string") fields[field as Field] ??= detail.issue;
  }
  const message = typeof error?.message === "string" ? error.message : fallback;
  return { message, fields };
}

export function MemberAuthForm({ mode, returnTo }: { mode: Mode; returnTo: string }) {
  const [problems, setProblems] = useState<Problems>({ message: null, fields: {} });
  const [pending, setPending] = useState(false);
  const isSignup = mode === "signup";

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = isSignup
      ? { name: text(form, "name") || undefined, email: text(form, "email"), password: text(form, "password") }
      : { email: text(form, "email"), password: text(form, "password") };
    if (isSignup) {
      const parsed = ZMemberSignupInput.safeParse(body);
      if (!parsed.success) {
        const fields: Problems["fields"] = {};
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? "") as Field;
          if (FIELDS.includes(field)) fields[field] ??= issue.message;
        }
        setProblems({ message: "Check the highlighted fields.", fields });
        return;
      }
    }
    setPending(true);
    setProblems({ message: null, fields: {} });
    try {
      const response = await fetch(isSignup ? "/api/auth/v1/signup" : "/api/auth/v1/login", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        credentials: "same-origin",
        body: JSON.stringify(body),
      });
      if (response.ok) {
        window.location.assign(returnTo);
        return; // stay "pending" while the next page loads
      }
      setProblems(problemsOf(await response.json().catch(() => null), "Something went wrong. Try again."));
    } catch {
      setProblems({ message: "The server could not be reached. Check your connection and try again.", fields: {} });
    }
    setPending(false);
  }

  const other = isSignup ? "/member/login" : "/member/signup";
  const otherHref = `${other}?return_to=${encodeURIComponent(returnTo)}`;
  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      className="space-y-5"
      aria-describedby={problems.message ? "member-form-error" : undefined}
    >
      {problems.message ? (
        <Alert tone="error" id="member-form-error">
          {problems.message}
        </Alert>
      ) : null}
      {isSignup ? (
        <FormField id="name" label="Name" optional error={problems.fields.name} hint="Shown next to your comments.">
          <Input name="name" autoComplete="name" maxLength={200} />
        </FormField>
      ) : null}
      <FormField id="email" label="E-mail" error={problems.fields.email}>
        <Input name="email" type="email" autoComplete={isSignup ? "email" : "username"} required autoFocus />
      </FormField>
      <FormField
        id="password"
        label="Password"
        error={problems.fields.password}
        hint={isSignup ? "At least 8 characters." : undefined}
      >
        <Input
          name="password"
          type="password"
          autoComplete={isSignup ? "new-password" : "current-password"}
          required
          minLength={isSignup ? 8 : undefined}
        />
      </FormField>
      {isSignup ? null : (
        <p className="-mt-2 text-right text-sm">
          <TextLink href={`/member/forgot-password?return_to=${encodeURIComponent(returnTo)}`}>
            Forgot password?
          </TextLink>
        </p>
      )}
      <Button
        type="submit"
        variant="primary"
        size="lg"
        className="w-full"
        loading={pending}
        loadingText={isSignup ? "Creating your account…" : "Signing in…"}
      >
        {isSignup ? "Create account" : "Sign in"}
      </Button>
      <p className="text-center text-sm text-gray-700">
        {isSignup ? "Already have an account? " : "New here? "}
        <TextLink href={otherHref}>{isSignup ? "Sign in" : "Create an account"}</TextLink>
      </p>
    </form>
  );
}
