"use client";

/**
 * The member login and sign-up form (app/member/login, app/member/signup): served on the
 * publisher's host, posting to the member API there (/api/auth/v1/login, /api/auth/v1/signup),
 * which sets the session cookie; then the browser goes on to `returnTo` (already made safe by the
 * page: a path on this site). Sign-up is checked with the API's own schema first. Every word is the
 * member catalogue's (./member-i18n.tsx); a refusal is said by its error code (./problem-words.ts).
 */
import { useState, type FormEvent } from "react";

import { Alert, Button, FormField, Input, TextLink } from "@/components/ui";
import { ZMemberSignupInput } from "@/server/members/members.schema";

import { useWords } from "./member-i18n";
import { issueText, problemText } from "./problem-words";
import { problemOf } from "./self-service-api";

type Mode = "login" | "signup";
type Field = "name" | "email" | "password";
type Problems = { message: string | null; fields: Partial<Record<Field, string>> };

const FIELDS: readonly Field[] = ["name", "email", "password"];
const PASSWORD_MIN = 8;
const NAME_MAX = 200;

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export function MemberAuthForm({ mode, returnTo }: { mode: Mode; returnTo: string }) {
  const { t } = useWords();
  const [problems, setProblems] = useState<Problems>({ message: null, fields: {} });
  const [pending, setPending] = useState(false);
  const isSignup = mode === "signup";

  /** A refused answer: the sentence by its code, and the fields it names with their own words. */
  function refused(status: number, json: unknown): Problems {
    const problem = problemOf(status, json);
    const fields: Problems["fields"] = {};
    for (const name of problem.fields) {
      const field = name.split(".")[0] as Field;
      if (field === "email") fields.email ??= t("field.email");
      if (field === "password") fields.password ??= t("field.tooShort", { min: PASSWORD_MIN });
      if (field === "name") fields.name ??= t("field.tooLong", { max: NAME_MAX });
    }
    const message = problemText(t, problem, {
      UNAUTHORIZED: "auth.badCredentials",
      CONFLICT: "auth.emailTaken",
      BAD_REQUEST: "auth.checkFields",
    });
    return { message, fields };
  }

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
          if (FIELDS.includes(field)) fields[field] ??= issueText(t, issue);
        }
        setProblems({ message: t("auth.checkFields"), fields });
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
      setProblems(refused(response.status, await response.json().catch(() => null)));
    } catch {
      setProblems({ message: t("common.offline"), fields: {} });
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
        <FormField
          id="name"
          label={t("auth.name")}
          optional={t("common.optional")}
          error={problems.fields.name}
          hint={t("auth.nameHint")}
        >
          <Input name="name" autoComplete="name" maxLength={NAME_MAX} dir="auto" />
        </FormField>
      ) : null}
      <FormField id="email" label={t("auth.email")} error={problems.fields.email}>
        <Input name="email" type="email" dir="ltr" autoComplete={isSignup ? "email" : "username"} required autoFocus />
      </FormField>
      <FormField
        id="password"
        label={t("auth.password")}
        error={problems.fields.password}
        hint={isSignup ? t("auth.passwordHint", { min: PASSWORD_MIN }) : undefined}
      >
        <Input
          name="password"
          type="password"
          dir="ltr"
          autoComplete={isSignup ? "new-password" : "current-password"}
          required
          minLength={isSignup ? PASSWORD_MIN : undefined}
        />
      </FormField>
      {isSignup ? null : (
        <p className="-mt-2 text-end text-sm">
          <TextLink href={`/member/forgot-password?return_to=${encodeURIComponent(returnTo)}`}>
            {t("auth.forgot")}
          </TextLink>
        </p>
      )}
      <Button
        type="submit"
        variant="primary"
        size="lg"
        className="w-full"
        loading={pending}
        loadingText={isSignup ? t("auth.creating") : t("auth.signingIn")}
      >
        {isSignup ? t("auth.submitSignup") : t("auth.submitLogin")}
      </Button>
      <p className="text-center text-sm text-gray-700">
        {isSignup ? t("auth.haveAccount") : t("auth.newHere")}{" "}
        <TextLink href={otherHref}>{isSignup ? t("auth.toLogin") : t("auth.toSignup")}</TextLink>
      </p>
    </form>
  );
}
