"use client";

/**
 * The member's two signed-out password pages (app/member/forgot-password, app/member/reset-password),
 * on the publisher's host: ask for a reset link (POST /api/member/forgot-password with
 * `page: "hosted"`, so the e-mail links back to the hosted reset page; the answer is the same for
 * every e-mail), then choose the new password with the link's token (POST /api/member/password/reset).
 * The forms are the dashboard's (components/ui/password-reset.tsx), in the reader's words.
 */
import { useMemo } from "react";

import {
  ForgotPasswordPanel,
  ResetPasswordPanel,
  type PasswordPages,
  type PasswordWords,
} from "@/components/ui/password-reset";

import { useWords } from "./member-i18n";
import type { MemberWords } from "./member-words";
import { problemText } from "./problem-words";

const MEMBER: PasswordPages = {
  forgotApi: "/api/member/forgot-password",
  forgotBody: { page: "hosted" },
  resetApi: "/api/member/password/reset",
  forgotPage: "/member/forgot-password",
  signInPage: "/member/login",
  minPasswordLength: 8,
  testIdPrefix: "member-",
};

function passwordWords(t: MemberWords["t"]): PasswordWords {
  return {
    email: t("auth.email"),
    emailHint: t("forgot.emailHint"),
    emailRequired: t("forgot.emailRequired"),
    emailRequiredField: t("field.required"),
    send: t("forgot.send"),
    sending: t("forgot.sending"),
    backToSignIn: t("forgot.back"),
    newPassword: t("reset.newPassword"),
    newPasswordHint: (min) => t("auth.passwordHint", { min }),
    repeatPassword: t("reset.repeat"),
    differ: t("reset.differ"),
    differField: t("reset.differField"),
    save: t("reset.save"),
    saving: t("reset.saving"),
    noToken: t("reset.noToken"),
    askNewLink: t("reset.askNew"),
    changed: t("reset.done"),
    signIn: t("reset.signIn"),
    sent: t("forgot.sent"),
    offline: t("common.offline"),
    error: t("common.error"),
    refusal: (answer) => {
      // 422: the reset link is invalid, expired or used (server/members/members.ts).
      const token = answer.code === "UNPROCESSABLE" || answer.fields.includes("token");
      const fields: Record<string, string> = {};
      if (answer.fields.includes("email")) fields.email = t("field.email");
      if (answer.fields.includes("password")) fields.password = t("field.tooShort", { min: MEMBER.minPasswordLength });
      const problem = { status: answer.status, code: answer.code, fields: answer.fields };
      const error = token
        ? t("reset.badLink")
        : problemText(t, problem, { BAD_REQUEST: "auth.checkFields", UNAUTHORIZED: "common.error" });
      return { error, fields, token };
    },
  };
}

export function MemberForgotPasswordForm({ returnTo }: { returnTo: string }) {
  const { t } = useWords();
  const words = useMemo(() => passwordWords(t), [t]);
  return (
    <ForgotPasswordPanel
      pages={MEMBER}
      words={words}
      back={`/member/login?return_to=${encodeURIComponent(returnTo)}`}
    />
  );
}

export function MemberResetPasswordForm({ token }: { token: string }) {
  const { t } = useWords();
  const words = useMemo(() => passwordWords(t), [t]);
  return <ResetPasswordPanel pages={MEMBER} words={words} token={token} />;
}
