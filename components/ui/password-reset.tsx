"use client";

/**
 * The two signed-out password forms, shared by the dashboard's pages (staff) and the hosted member
 * pages (readers): "Forgot password?" asks for a link by e-mail (the answer is the same for every
 * e-mail), and the page the link opens chooses the new password with the link's token. Each caller
 * says where they post and where they lead (`PasswordPages`).
 */
import { useState, type FormEvent, type ReactNode } from "react";

import { nullPrototypeRecord } from "@/server/own-keys";

import { Alert } from "./alert";
import { Button } from "./button";
import { FormField } from "./form-field";
import { Input } from "./input";
import { TextLink } from "./link";

export type PasswordPages = {
  /** POST {email, ...forgotBody}: sends the link. */
  forgotApi: string;
  /** Sent beside the e-mail (a member's `page: "hosted"`). */
  forgotBody?: Record<string, unknown>;
  /** POST {token, password}: sets the password. */
  resetApi: string;
  /** The page that asks for a new link. */
  forgotPage: string;
  /** Where to sign in after a reset. */
  signInPage: string;
  minPasswordLength: number;
  /** Test ids of the outcomes: `${prefix}forgot-password-done`, `${prefix}reset-password-done`, `${prefix}reset-password-no-token`. */
  testIdPrefix: string;
};

type Result = { ok: true; message: string } | { ok: false; error: string; fields: Record<string, string> };

async function post(path: string, body: unknown): Promise<Result> {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as {
      message?: string;
      error?: { message?: string; details?: { field?: string; issue?: string }[] };
    };
    if (response.ok) return { ok: true, message: json.message ?? "Done." };
    const fields = nullPrototypeRecord<string>();
    for (const detail of json.error?.details ?? [])
      if (typeof detail.field === "string" && typeof detail.issue === "string")
        fields[detail.field.replace(/^body\./, "")] ??= detail.issue;
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
 * A form's post: `pending` while it runs, then the answer's message (`message`), or its error and
 * the problems it names by field. `refuse` shows problems found in the form itself, sending nothing.
 */
function usePost(path: string) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  function refuse(problem: string, problems: Record<string, string>) {
    setFields(problems);
    setError(problem);
  }

  /** The submit handler: it sends what `body` gives (nothing when it gives undefined, having refused). */
  const submitWith = (body: () => unknown) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = body();
    if (value === undefined) return;
    setPending(true);
    setError(null);
    setFields({});
    const result = await post(path, value);
    setPending(false);
    if (result.ok) setMessage(result.message);
    else refuse(result.error, result.fields);
  };

  return { pending, message, error, fields, submitWith, refuse };
}

/** What a page shows instead of its form (done, or no token): the message, and where to go next. */
function Outcome(props: {
  tone: "success" | "error";
  testId: string;
  href: string;
  link: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <Alert tone={props.tone} data-testid={props.testId}>
        {props.children}
      </Alert>
      <p className="text-sm">
        <TextLink href={props.href}>{props.link}</TextLink>
      </p>
    </div>
  );
}

/** "Forgot password?": the e-mail, then the same answer for every address. `back`: the sign-in page to return to. */
export function ForgotPasswordPanel({ pages, back }: { pages: PasswordPages; back: string }) {
  const [email, setEmail] = useState("");
  const { pending, message, error, fields, submitWith, refuse } = usePost(pages.forgotApi);
  const submit = submitWith(() => {
    if (email.trim()) return { ...pages.forgotBody, email };
    refuse("Give the e-mail you sign in with.", { email: "is required" });
    return undefined;
  });

  if (message)
    return (
      <Outcome tone="success" testId={`${pages.testIdPrefix}forgot-password-done`} href={back} link="Back to sign in">
        {message}
      </Outcome>
    );
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FormField id="email" label="E-mail" hint="The address you sign in with." error={fields.email}>
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
        <TextLink href={back}>Back to sign in</TextLink>
      </p>
    </form>
  );
}

/** The page a reset link opens: the new password twice, posted with the link's token. */
export function ResetPasswordPanel({ pages, token }: { pages: PasswordPages; token: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const { pending, message, error, fields, submitWith, refuse } = usePost(pages.resetApi);
  const submit = submitWith(() => {
    if (password === confirm) return { token, password };
    refuse("The two passwords differ.", { confirm: "does not match the new password" });
    return undefined;
  });

  if (!token)
    return (
      <Outcome
        tone="error"
        testId={`${pages.testIdPrefix}reset-password-no-token`}
        href={pages.forgotPage}
        link="Ask for a new link"
      >
        This page needs the link from your e-mail. Ask for a new one.
      </Outcome>
    );
  if (message)
    return (
      <Outcome
        tone="success"
        testId={`${pages.testIdPrefix}reset-password-done`}
        href={pages.signInPage}
        link="Sign in"
      >
        Password changed. Sign in with your new password.
      </Outcome>
    );
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {error ? (
        <Alert tone="error">
          {error}
          {fields.token || /expired|already used/.test(error) ? (
            <>
              {" "}
              <TextLink href={pages.forgotPage}>Ask for a new link</TextLink>.
            </>
          ) : null}
        </Alert>
      ) : null}
      <FormField
        id="new-password"
        label="New password"
        hint={`At least ${pages.minPasswordLength} characters.`}
        error={fields.password}
      >
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={pages.minPasswordLength}
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
