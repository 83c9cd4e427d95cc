"use client";

/**
 * The appeal page of a decision on an illegal-content notice (/member/dsa-appeal?token=…; docs/privacy.md,
 * "Illegal-content notices"): the decision as the mail stated it, and a text box to appeal once.
 * No password or session: the link's token is the permission (server/engagement/dsa/appeals.ts),
 * sent in the body of the API's requests, not in their URL.
 */
import { useEffect, useState } from "react";

import { Alert, Button, Card, FormField, Textarea } from "@/components/ui";

import { LocalTime } from "./local-time";
import { useWords } from "./member-i18n";
import { problemText } from "./problem-words";
import { sendJson, type Problem } from "./self-service-api";

type AppealView = {
  party: string;
  headline: string;
  action: string;
  ground: string;
  ground_reference: string;
  facts: string;
  appeal_until: string;
  submitted_at: string | null;
  can_appeal: boolean;
};

const ACTIONS = new Map([
  ["remove", "dsa.action.remove"],
  ["restrict", "dsa.action.restrict"],
  ["none", "dsa.action.none"],
] as const);

export function DsaAppeal({ token }: { token: string }) {
  const { t, rich } = useWords();
  const [view, setView] = useState<AppealView | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      const res = await sendJson("POST", "/api/member/dsa-appeal/view", { token });
      if (res.ok) setView(res.body as AppealView);
      else setProblem(res.problem);
    })();
  }, [token]);

  if (!view)
    return problem ? (
      <Alert tone="error">{problemText(t, problem, { NOT_FOUND: "dsa.invalid", BAD_REQUEST: "dsa.invalid" })}</Alert>
    ) : (
      <p className="text-sm">{t("common.loading")}</p>
    );

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setSending(true);
    setError(null);
    const res = await sendJson("POST", "/api/member/dsa-appeal", { token, text: text.trim() });
    setSending(false);
    if (res.ok) setSent(true);
    else
      setError(problemText(t, res.problem, { CONFLICT: "dsa.already", GONE: "dsa.expired", NOT_FOUND: "dsa.invalid" }));
  }

  const action = ACTIONS.get(view.action as "remove") ?? "dsa.action.none";
  return (
    <div className="space-y-4">
      <Card className="space-y-2 p-5">
        <h2 className="text-base font-semibold text-gray-900">{t("dsa.decision")}</h2>
        <p className="text-sm text-gray-700">{rich("dsa.comment", { headline: <bdi>{view.headline}</bdi> })}</p>
        <p className="text-sm font-medium text-gray-900">{t(action)}</p>
        <p className="text-sm text-gray-700">
          {rich(view.ground === "terms" ? "dsa.groundTerms" : "dsa.groundLegal", {
            reference: <bdi>{view.ground_reference}</bdi>,
          })}
        </p>
        <p className="text-sm break-words text-gray-700">{rich("dsa.facts", { facts: <bdi>{view.facts}</bdi> })}</p>
      </Card>
      {sent ? (
        <Alert tone="success">{t("dsa.sent")}</Alert>
      ) : view.submitted_at ? (
        <Alert tone="info">{t("dsa.already")}</Alert>
      ) : !view.can_appeal ? (
        <Alert tone="info">{t("dsa.expired")}</Alert>
      ) : (
        <Card className="p-5">
          <form onSubmit={(e) => void submit(e)} className="space-y-3">
            <p className="text-sm text-gray-700">
              {rich("dsa.until", { date: <LocalTime value={view.appeal_until} /> })}
            </p>
            <FormField label={t("dsa.text")} error={error ?? undefined}>
              <Textarea
                name="text"
                rows={6}
                minLength={10}
                maxLength={2000}
                required
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            </FormField>
            <Button type="submit" variant="primary" disabled={sending || text.trim().length < 10}>
              {t("dsa.send")}
            </Button>
          </form>
        </Card>
      )}
    </div>
  );
}
