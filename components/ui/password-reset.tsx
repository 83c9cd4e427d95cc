"use client";

/**
 * The two signed-out password forms, shared by the dashboard's pages (staff) and the hosted member
 * pages (readers): "Forgot password?" asks for a link by e-mail (the answer is the same for every
 * e-mail), and the page the link opens chooses the new password with the link's token. Each caller
 * says where they post and where they lead (`PasswordPages`), and in which words (`PasswordWords`:
 * the dashboard's English by default; a reader's page passes its own language's).
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

/** What the forms say. */
export type PasswordWords = {
  email: string;
  emailHint: string;
  /** The form's problem when the e-mail is empty, and the field's. */
  emailRequired: string;
  emailRequiredField: string;
  send: string;
  sending: string;
  backToSignIn: string;
  newPassword: string;
  /** The new password's hint, given the shortest length. */
  newPasswordHint: (min: number) => string;
  repeatPassword: string;
  differ: string;
  differField: string;
  save: string;
  saving: string;
  noToken: string;
  askNewLink: string;
  changed: string;
  signIn: string;
  /** The answer once a link is asked for (null: the API's sentence). */
  sent: string | null;
  offline: string;
  error: string;
  /**
   * A refusal in the page's own words, from the API's answer (null: the API's sentence and field
   * issues). `token`: the link is what failed, so the form offers a new one.
   */
  refusal: ((answer: Refusal) => { error: string; fields: Record<string, string>; token: boolean }) | null;
};

/** A refused answer: its status, `error.code` and the fields its details name (body. taken off). */
type Refusal = { status: number; code: string | null; fields: string[] };

/** The dashboard's words (staff). */
const STAFF_PASSWORD_WORDS: PasswordWords = {
  email: "E-mail",
  emailHint: "The address you sign in with.",
  emailRequired: "Give the e-mail you sign in with.",
  emailRequiredField: "is required",
  send: "Send me a link",
  sending: "Sending…",
  backToSignIn: "Back to sign in",
  newPassword: "New password",
  newPasswordHint: (min) => `At least ${min} characters.`,
  repeatPassword: "Repeat the new password",
  differ: "The two passwords differ.",
  differField: "does not match the new password",
  save: "Set password",
  saving: "Saving…",
  noToken: "This page needs the link from your e-mail. Ask for a new one.",
  askNewLink: "Ask for a new link",
  changed: "Password changed. Sign in with your new password.",
  signIn: "Sign in",
  sent: null,
  offline: "The server could not be reached. Check your connection and try again.",
  error: "Something went wrong. Try again.",
  refusal: null,
};

type Result =
  { ok: true; message: string } | { ok: false; error: string; fields: Record<string, string>; token: boolean };

async function post(path: string, body: unknown, words: PasswordWords): Promise<Result> {
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
    if (response.ok) return { ok: true, message: words.sent ?? json.message ?? "Done." };
    if (words.refusal) {
      const code = (json.error as { code?: unknown } | undefined)?.code;
      const named = (json.error?.details ?? []).map((d) => (typeof d.field === "string" ? d.field : ""));
      return {
        ok: false,
        ...words.refusal({
          status: response.status,
          code: typeof code === "string" ? code : null,
          fields: named.filter(Boolean).map((f) => f.replace(/^body\./, "")),
        }),
      };
    }
    const fields = nullPrototypeRecord<string>();
    for (const detail of json.error?.details ?? [])
      if (typeof detail.field === "string" && typeof detail.issue === "string")
        fields[detail.field.replace(/^body\./, "")] ??= detail.issue;
    const requestId = response.headers.get("x-request-id");
    const message = json.error?.message ?? words.error;
    return {
      ok: false,
      error: response.status >= 500 && requestId ? `${message} (request id ${requestId})` : message,
      fields,
      token: Boolean(fields.token) || /expired|already used/.test(message),
    };
  } catch {
    return { ok: false, error: words.offline, fields: {}, token: false };
  }
}

/**
 * A form's post: `pending` while it runs, then the answer's message (`message`), or its error and
 * the problems it names by field. `refuse` shows problems found in the form itself, sending nothing.
 */
function usePost(path: string, words: PasswordWords) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [tokenFailed, setTokenFailed] = useState(false);

  function refuse(problem: string, problems: Record<string, string>, token = false) {
    setFields(problems);
    setError(problem);
    setTokenFailed(token);
  }

  /** The submit handler: it sends what `body` gives (nothing when it gives undefined, having refused). */
  const submitWith = (body: () => unknown) => async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = body();
    if (value === undefined) return;
    setPending(true);
    setError(null);
    setFields({});
    const result = await post(path, value, words);
    setPending(false);
    if (result.ok) setMessage(result.message);
    else refuse(result.error, result.fields, result.token);
  };

  return { pending, message, error, fields, tokenFailed, submitWith, refuse };
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
export function ForgotPasswordPanel({
  pages,
  back,
  words = STAFF_PASSWORD_WORDS,
}: {
  pages: PasswordPages;
  back: string;
  words?: PasswordWords;
}) {
  const [email, setEmail] = useState("");
  const { pending, message, error, fields, submitWith, refuse } = usePost(pages.forgotApi, words);
  const submit = submitWith(() => {
    if (email.trim()) return { ...pages.forgotBody, email };
    refuse(words.emailRequired, { email: words.emailRequiredField });
    return undefined;
  });

  if (message)
    return (
      <Outcome
        tone="success"
        testId={`${pages.testIdPrefix}forgot-password-done`}
        href={back}
        link={words.backToSignIn}
      >
        {message}
      </Outcome>
    );
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FormField id="email" label={words.email} hint={words.emailHint} error={fields.email}>
        <Input
          name="email"
          dir="ltr"
          type="email"
          autoComplete="username"
          required
          autoFocus
          maxLength={254}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </FormField>
      <Button
        type="submit"
        variant="primary"
        size="lg"
        className="w-full"
        loading={pending}
        loadingText={words.sending}
      >
        {words.send}
      </Button>
      <p className="text-center text-sm text-gray-700">
        <TextLink href={back}>{words.backToSignIn}</TextLink>
      </p>
    </form>
  );
}

/** The page a reset link opens: the new password twice, posted with the link's token. */
export function ResetPasswordPanel({
  pages,
  token,
  words = STAFF_PASSWORD_WORDS,
}: {
  pages: PasswordPages;
  token: string;
  words?: PasswordWords;
}) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const { pending, message, error, fields, tokenFailed, submitWith, refuse } = usePost(pages.resetApi, words);
  const submit = submitWith(() => {
    if (password === confirm) return { token, password };
    refuse(words.differ, { confirm: words.differField });
    return undefined;
  });

  if (!token)
    return (
      <Outcome
        tone="error"
        testId={`${pages.testIdPrefix}reset-password-no-token`}
        href={pages.forgotPage}
        link={words.askNewLink}
      >
        {words.noToken}
      </Outcome>
    );
  if (message)
    return (
      <Outcome
        tone="success"
        testId={`${pages.testIdPrefix}reset-password-done`}
        href={pages.signInPage}
        link={words.signIn}
      >
        {words.changed}
      </Outcome>
    );
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {error ? (
        <Alert tone="error">
          {error}
          {tokenFailed ? (
            <>
              {" "}
              <TextLink href={pages.forgotPage}>{words.askNewLink}</TextLink>.
            </>
          ) : null}
        </Alert>
      ) : null}
      <FormField
        id="new-password"
        label={words.newPassword}
        hint={words.newPasswordHint(pages.minPasswordLength)}
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
      <FormField id="confirm-password" label={words.repeatPassword} error={fields.confirm}>
        <Input
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
      </FormField>
      <Button type="submit" variant="primary" size="lg" className="w-full" loading={pending} loadingText={words.saving}>
        {words.save}
      </Button>
    </form>
  );
}
