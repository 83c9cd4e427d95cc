"use client";

/**
 * The member's two signed-out password pages (app/member/forgot-password, app/member/reset-password),
 * on the publisher's host: ask for a reset link (POST /api/member/forgot-password with
 * `page: "hosted"`, so the e-mail links back to the hosted reset page; the answer is the same for
 * every e-mail), then choose the new password with the link's token (POST /api/member/password/reset).
 */
import { useState, type FormEvent, type ReactNode } from "react";

import { Alert, Button, FormField, Input, TextLink } from "@/components/ui";

type Outcome = { ok: true; message: string } | { ok: false; message: string; fields: Record<string, string> };

async function post(path: string, body: unknown): Promise<Outcome> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as {
      message?: string;
      error?: { message?: string; details?: { field?: string; issue?: string }[] };
    };
    if (response.ok) return { ok: true, message: json.message ?? "Done." };
    const fields: Record<string, string> = {};
    for (const detail of json.error?.details ?? []) {
      if (typeof detail.field === "string" && typeof detail.issue === "string")
        fields[detail.field.replace(/^body\./, "")] ??= detail.issue;
    }
    return { ok: false, message: json.error?.message ?? "Something went wrong. Try again.", fields };
  } catch {
    return { ok: false, message: "The server could not be reached. Check your connection and try again.", fields: {} };
  }
}

/** What a page shows instead of its form once done (or without a token): the message and where to go next. */
function Done({
  tone,
  testId,
  href,
  link,
  children,
}: {
  tone: "success" | "error";
  testId: string;
  href: string;
  link: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <Alert tone={tone} data-testid={testId}>
        {children}
      </Alert>
      <p className="text-sm">
        <TextLink href={href}>{link}</TextLink>
      </p>
    </div>
  );
}

function loginHref(returnTo: string): string {
  return `/member/login?return_to=${encodeURIComponent(returnTo)}`;
}

export function MemberForgotPasswordForm({ returnTo }: { returnTo: string }) {
  const [email, setEmail] = useState("");
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!email.trim()) {
      setOutcome({ ok: false, message: "Give the e-mail you sign in with.", fields: { email: "is required" } });
      return;
    }
    setPending(true);
    setOutcome(await post("/api/member/forgot-password", { email, page: "hosted" }));
    setPending(false);
  }

  if (outcome?.ok) {
    return (
      <Done tone="success" testId="member-forgot-password-done" href={loginHref(returnTo)} link="Back to sign in">
        {outcome.message}
      </Done>
    );
  }
  const problems = outcome && !outcome.ok ? outcome : null;
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {problems ? <Alert tone="error">{problems.message}</Alert> : null}
      <FormField id="email" label="E-mail" hint="The address you sign in with." error={problems?.fields.email}>
        <Input
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          maxLength={254}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </FormField>
      <Button type="submit" variant="primary" size="lg" className="w-full" loading={pending} loadingText="Sending…">
        Send me a link
      </Button>
      <p className="text-center text-sm text-gray-700">
        <TextLink href={loginHref(returnTo)}>Back to sign in</TextLink>
      </p>
    </form>
  );
}

export function MemberResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirm) {
      setOutcome({
        ok: false,
        message: "The two passwords differ.",
        fields: { confirm: "does not match the new password" },
      });
      return;
    }
    setPending(true);
    setOutcome(await post("/api/member/password/reset", { token, password }));
    setPending(false);
  }

  if (!token) {
    return (
      <Done
        tone="error"
        testId="member-reset-password-no-token"
        href="/member/forgot-password"
        link="Ask for a new link"
      >
        This page needs the link from your e-mail. Ask for a new one.
      </Done>
    );
  }
  if (outcome?.ok) {
    return (
      <Done tone="success" testId="member-reset-password-done" href="/member/login" link="Sign in">
        Password changed. Sign in with your new password.
      </Done>
    );
  }
  const problems = outcome && !outcome.ok ? outcome : null;
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {problems ? (
        <Alert tone="error">
          {problems.message}
          {problems.fields.token || /expired|already used/.test(problems.message) ? (
            <>
              {" "}
              <TextLink href="/member/forgot-password">Ask for a new link</TextLink>.
            </>
          ) : null}
        </Alert>
      ) : null}
      <FormField id="new-password" label="New password" hint="At least 8 characters." error={problems?.fields.password}>
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          maxLength={200}
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </FormField>
      <FormField id="confirm-password" label="Repeat the new password" error={problems?.fields.confirm}>
        <Input
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
      </FormField>
      <Button type="submit" variant="primary" size="lg" className="w-full" loading={pending} loadingText="Saving…">
        Set password
      </Button>
    </form>
  );
}
