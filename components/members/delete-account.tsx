"use client";

/**
 * The reader's account deletion (app/member/delete-account): ask for the confirmation link (POST
 * /api/member/delete-account, signed in), then, on the link's page, confirm with the button
 * (POST /api/member/delete-account/confirm {token}); the server signs the reader out and the
 * erasure runs in the background (docs/privacy.md "Erasure").
 */
import { useState } from "react";

import { Alert, Button, TextLink } from "@/components/ui";

import { useWords } from "./member-i18n";
import { sendJson } from "./self-service-api";

export function DeleteAccountAsk({ signedIn }: { signedIn: boolean }) {
  const { t } = useWords();
  const [state, setState] = useState<"idle" | "sending" | "sent" | "signedOut" | "error" | "rateLimited">(
    signedIn ? "idle" : "signedOut",
  );
  const ask = async () => {
    setState("sending");
    const { status } = await sendJson("POST", "/api/member/delete-account", {});
    setState(status === 200 ? "sent" : status === 401 ? "signedOut" : status === 429 ? "rateLimited" : "error");
  };
  return (
    <div className="space-y-4 text-sm text-gray-700">
      <p>{t("erase.keeps")}</p>
      <p>{t("erase.how")}</p>
      {state === "signedOut" ? (
        <p data-testid="erase-sign-in">
          {t("erase.signInToDelete")}{" "}
          <TextLink href={`/member/login?return_to=${encodeURIComponent("/member/delete-account")}`}>
            {t("erase.signIn")}
          </TextLink>
        </p>
      ) : state === "sent" ? (
        <Alert tone="success" data-testid="erase-sent">
          {t("erase.sent")}
        </Alert>
      ) : (
        <>
          {state === "error" ? <Alert tone="error">{t("common.error")}</Alert> : null}
          {state === "rateLimited" ? <Alert tone="error">{t("common.rateLimited")}</Alert> : null}
          <Button variant="danger" onClick={ask} loading={state === "sending"} loadingText={t("erase.asking")}>
            {t("erase.ask")}
          </Button>
        </>
      )}
    </div>
  );
}

export function DeleteAccountConfirm({ token }: { token: string }) {
  const { t } = useWords();
  const [state, setState] = useState<"idle" | "deleting" | "done" | "badLink" | "otherReader" | "error">(
    token ? "idle" : "badLink",
  );
  const confirm = async () => {
    setState("deleting");
    const { status } = await sendJson("POST", "/api/member/delete-account/confirm", { token });
    setState(
      status === 200 ? "done" : status === 422 || status === 400 ? "badLink" : status === 403 ? "otherReader" : "error",
    );
  };
  if (state === "done")
    return (
      <Alert tone="success" data-testid="erase-done">
        {t("erase.done")}
      </Alert>
    );
  if (state === "badLink")
    return (
      <div className="space-y-3 text-sm">
        <Alert tone="error">{token ? t("erase.badLink") : t("erase.noToken")}</Alert>
        <TextLink href="/member/delete-account">{t("erase.askNew")}</TextLink>
      </div>
    );
  return (
    <div className="space-y-3">
      {state === "otherReader" ? <Alert tone="error">{t("erase.otherReader")}</Alert> : null}
      {state === "error" ? <Alert tone="error">{t("common.error")}</Alert> : null}
      <Button
        variant="danger"
        className="w-full"
        onClick={confirm}
        loading={state === "deleting"}
        loadingText={t("erase.confirming")}
      >
        {t("erase.confirm")}
      </Button>
    </div>
  );
}
