"use client";

/**
 * The "Your data" page's export (app/member/privacy, docs/privacy.md "Data export"): the reader's
 * latest request and a button to ask for their data. Through /api/member/privacy/exports (the
 * session cookie). The archive itself is only reachable by the mailed link. Times are the
 * browser's (rendered after the client has loaded them: no server render to mismatch).
 */
import { useCallback, useEffect, useState } from "react";

import { Alert, Button, TextLink } from "@/components/ui";
import { formatDateTime } from "@/i18n/format";
import type { TMemberExportView } from "@/server/privacy/exports/exports.schema";

import { useWords } from "./member-i18n";
import { problemText } from "./problem-words";
import { sendJson } from "./self-service-api";

const PRIVACY_PATH = "/member/privacy";
/** As server/privacy/exports/build.ts EXPORT_TTL_DAYS (kept out of the client bundle's imports). */
const LINK_DAYS = 7;

export function PrivacyExport() {
  const { t, locale } = useWords();
  const [state, setState] = useState<"loading" | "signed-out" | "error" | "ready">("loading");
  const [latest, setLatest] = useState<TMemberExportView | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(async () => {
    const res = await sendJson("GET", "/api/member/privacy/exports");
    if (res.status === 401) return setState("signed-out");
    if (!res.ok) return setState("error");
    setLatest((res.body as { export: TMemberExportView | null }).export);
    setState("ready");
  }, []);
  useEffect(() => {
    // load() sets state only after the server's answer: an external system's callback.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);

  async function ask() {
    setBusy(true);
    setProblem(null);
    const res = await sendJson("POST", "/api/member/privacy/exports", { locale });
    setBusy(false);
    if (!res.ok)
      return setProblem(
        problemText(t, res.problem, { BAD_REQUEST: "export.askFailed", UNPROCESSABLE: "export.needEmail" }),
      );
    setLatest((res.body as { export: TMemberExportView }).export);
  }

  if (state === "loading") return <p className="text-sm text-gray-600">{t("export.loading")}</p>;
  if (state === "signed-out")
    return (
      <Alert tone="info">
        {t("export.signInToSee")}{" "}
        <TextLink href={`/member/login?return_to=${encodeURIComponent(PRIVACY_PATH)}`}>{t("export.signIn")}</TextLink>
      </Alert>
    );
  if (state === "error") return <Alert tone="error">{t("export.loadFailed")}</Alert>;
  const pending = latest?.status === "pending";
  return (
    <div className="space-y-8">
      <section aria-labelledby="export-heading" className="space-y-3">
        <h2 id="export-heading" className="text-base font-semibold text-gray-900">
          {t("export.askTitle")}
        </h2>
        <p className="text-sm text-gray-700">{t("export.askExplain", { days: LINK_DAYS })}</p>
        <div aria-live="polite" className="space-y-3" data-testid="export-status">
          {pending ? <Alert tone="info">{t("export.pending")}</Alert> : null}
          {latest?.status === "ready" && latest.expires_at ? (
            <Alert tone="success">
              {t("export.ready", { date: formatDateTime(new Date(latest.expires_at), locale) })}
            </Alert>
          ) : null}
          {latest?.status === "expired" ? <Alert tone="info">{t("export.expired")}</Alert> : null}
          {problem ? <Alert tone="error">{problem}</Alert> : null}
        </div>
        <Button variant="primary" disabled={busy || pending} aria-busy={busy} onClick={() => void ask()}>
          {busy ? t("export.asking") : t("export.askButton")}
        </Button>
      </section>
      <section aria-labelledby="delete-heading" className="space-y-2">
        <h2 id="delete-heading" className="text-base font-semibold text-gray-900">
          {t("export.deleteTitle")}
        </h2>
        <p className="text-sm text-gray-700">{t("export.deleteIntro")}</p>
        <TextLink href="/member/delete-account">{t("export.deleteLink")}</TextLink>
      </section>
    </div>
  );
}
