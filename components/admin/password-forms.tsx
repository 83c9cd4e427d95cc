"use client";

/**
 * The two signed-out password pages of the dashboard: "Forgot password?" (asks for a link by
 * e-mail; the answer is the same for every e-mail) and the page the link opens (choose a new
 * password). They post to the REST routes /api/admin/password/{forgot,reset}.
 */
import { useState, type FormEvent, type ReactNode } from "react";

import { Alert, Button, FormField, Input, TextLink } from "@/components/ui";

type ApiError = { error?: { message?: string; details?: { field: string; issue: string }[] } };

async function post(
  path: string,
  body: unknown,
): Promise<{ ok: true; message: string } | { ok: false; error: string; fields: Record<string, string> }> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as ApiError & { message?: string };
    if (response.ok) return { ok: true, message: json.message ?? "Done." };
    const fields: Record<string, string> = {};
    for (const detail of json.error?.details ?? []) fields[detail.field.replace(/^body\./, "")] ??= detail.issue;
    const requestId = response.headers.get("x-request-id");
    const message = json.error?.message ?? "Something went wrong. Try again.";
    return {
      ok: false,
      error: response.status >= 500 && requestId ? `${message} (request id ${requestId})` : message,
      fields,
    };
  } catch {
    return { ok: false, error: "The server could not be reached. Check your connection and try again.", fields: {} };
  }
}

/**
 * A form's post to one of the routes: `pending` while it runs, then the answer's message, shown
 * instead of the form with a link to sign in (`sent`, `done` saying where), or its error and the
 * problems it names by field.
 */
function usePost(path: string, done: { testId: string; link: string }) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function send(body: unknown) {
    setPending(true);
    setError(null);
    setFields({});
    const result = await post(path, body);
    setPending(false);
    if (result.ok) setMessage(result.message);
    else {
      setError(result.error);
      setFields(result.fields);
    }
  }

  /** Refuse to send, with the problems found in the form itself. */
  function refuse(message: string, problems: Record<string, string>) {
    setFields(problems);
    setError(message);
  }

  /** The form's submit handler: it sends what `body` gives (nothing when it gives undefined, having refused). */
  const submitWith = (body: () => unknown) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = body();
    if (value !== undefined) await send(value);
  };

  const sent = message ? (
    <Outcome tone="success" testId={done.testId} href="/admin/sign-in" link={done.link}>
      {message}
    </Outcome>
  ) : null;

  return { pending, sent, error, fields, submitWith, refuse };
}

/** What a page shows instead of its form (done, or no token): the message, and where to go next. */
function Outcome({
  tone,
  testId,
  href,
  link,
  children,
}: {
  tone: "success" | "error";
  testId?: string;
  href: string;
  link: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <Alert tone={tone} data-testid={testId}>
        {children}
      </Alert>
      <TextLink href={href} className="text-sm">
        {link}
      </TextLink>
    </div>
  );
}

export function ForgotPasswordForm() {
  const [email, setEmail] = useState("");
  const { pending, sent, error, submitWith } = usePost("/api/admin/password/forgot", {
    testId: "forgot-password-done",
    link: "Back to sign in",
  });
  const submit = submitWith(() => ({ email }));

  if (sent) return sent;
  return (
    <form onSubmit={submit} className="space-y-5">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FormField id="email" label="E-mail" hint="The address you sign in with.">
        <Input
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </FormField>
      <Button type="submit" variant="primary" size="lg" className="w-full" loading={pending} loadingText="Sending…">
        Send me a link
      </Button>
      <p className="text-center text-sm">
        <TextLink href="/admin/sign-in">Back to sign in</TextLink>
      </p>
    </form>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const { pending, sent, error, fields, submitWith, refuse } = usePost("/api/admin/password/reset", {
    testId: "reset-password-done",
    link: "Sign in",
  });
  const submit = submitWith(() => {
    if (password === confirm) return { token, password };
    refuse("The two passwords differ.", { confirm: "does not match the new password" });
    return undefined;
  });

  if (!token) {
    return (
      <Outcome tone="error" href="/admin/forgot-password" link="Ask for a new link">
        This page needs the link from your e-mail. Ask for a new one.
      </Outcome>
    );
  }
  if (sent) return sent;
  return (
    <form onSubmit={submit} className="space-y-5">
      {error ? (
        <Alert tone="error">
          {error}
          {fields.token ? (
            <>
              {" "}
              <TextLink href="/admin/forgot-password">Ask for a new link</TextLink>.
            </>
          ) : null}
        </Alert>
      ) : null}
      <FormField id="new-password" label="New password" hint="At least 12 characters." error={fields.password}>
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={200}
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </FormField>
      <FormField id="confirm-password" label="Repeat the new password" error={fields.confirm}>
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
