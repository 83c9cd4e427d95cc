"use client";

/**
 * The readers' self-service page (app/member/subscriptions): their subscriptions and invoices,
 * change plan (a preview in words, then confirm), cancel with a reason or take the publisher's
 * offer, undo a cancel, update the payment method (./self-service-actions.tsx). It talks to the
 * member API of the publisher's host (/api/member/subscriptions…, the session cookie); every figure
 * and sentence about a subscription comes from the server, in the reader's language, and the server
 * honours exactly what it previewed. Every time is in the reader's browser's zone, named: the page
 * sends it (`?time_zone=`) for the server's sentences and formats the rest itself (invoices, a
 * scheduled change), only after the client has loaded them (no server render to mismatch).
 */
import { useCallback, useEffect, useState } from "react";

import { Alert, Badge, Button, Card, TextLink, textLinkClasses } from "@/components/ui";

import { framedByAllowedSite } from "./frame-guard";
import { LocalTime } from "./local-time";
import { useWords } from "./member-i18n";
import { problemText } from "./problem-words";
import { CancelForm, PaymentMethod, readerZoneQuery, SwitchPlan } from "./self-service-actions";
import {
  readerFromHash,
  readerFromMessage,
  SELF_SERVICE_PATH,
  sendJson,
  startSession,
  type Overview,
  type SubscriptionCard,
} from "./self-service-api";
import { CreditNotes, Invoices } from "./self-service-documents";
import { NewsletterSection } from "./self-service-newsletters";

export function SelfService({ frameHosts }: { frameHosts: string[] }) {
  const { t } = useWords();
  const [data, setData] = useState<Overview | null>(null);
  const [state, setState] = useState<"loading" | "signed-out" | "error" | "ready" | "foreign-frame">("loading");
  const load = useCallback(async () => {
    if (!framedByAllowedSite(window, frameHosts)) return setState("foreign-frame");
    // A reader the publisher knows by its JWT: #key=<client key>&jwt=<reader JWT> (a fragment
    // never reaches a server or a log), exchanged once for a session, then dropped from the address.
    const fromHash = readerFromHash(window.location.hash);
    if (fromHash) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
      await startSession(fromHash);
    }
    const res = await sendJson("GET", `/api/member/subscriptions${readerZoneQuery()}`);
    if (res.status === 401) return setState("signed-out");
    if (!res.ok) return setState("error");
    setData(res.body as Overview);
    setState("ready");
  }, [frameHosts]);
  useEffect(() => {
    // load() sets state only after its first await (the server's answer): an external system's callback.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
  }, [load]);
  useEffect(() => {
    // Embedded: the publication's page may post the reader's JWT to the frame instead of the address.
    const onMessage = (event: MessageEvent) => {
      const reader = readerFromMessage(event, frameHosts);
      if (reader) void startSession(reader).then(load);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [frameHosts, load]);

  if (state === "loading") return <p className="text-sm text-gray-600">{t("self.loading")}</p>;
  if (state === "foreign-frame")
    return (
      <Alert tone="info">
        {t("self.foreignFrame")}{" "}
        <a className={textLinkClasses} href={SELF_SERVICE_PATH} target="_blank" rel="noopener">
          {t("self.openOwn")}
        </a>
      </Alert>
    );
  if (state === "signed-out")
    return (
      <Alert tone="info">
        {t("self.signInToSee")}{" "}
        <TextLink href={`/member/login?return_to=${encodeURIComponent(SELF_SERVICE_PATH)}`}>
          {t("self.signIn")}
        </TextLink>
      </Alert>
    );
  if (state === "error" || !data) return <Alert tone="error">{t("self.loadFailed")}</Alert>;
  return (
    <div className="space-y-8">
      <section aria-labelledby="subscriptions-heading" className="space-y-4">
        <h2 id="subscriptions-heading" className="text-base font-semibold text-gray-900">
          {t("self.subscriptions")}
        </h2>
        {data.subscriptions.length === 0 ? (
          <p className="text-sm text-gray-600">{t("self.none")}</p>
        ) : (
          data.subscriptions.map((s) => <Subscription key={s.id} s={s} reload={load} />)
        )}
      </section>
      <NewsletterSection />
      <Invoices invoices={data.invoices} />
      {data.credit_notes.length > 0 ? <CreditNotes notes={data.credit_notes} /> : null}
    </div>
  );
}

function StatusBadge({ s }: { s: SubscriptionCard }) {
  const { t } = useWords();
  if (s.in_grace_period) return <Badge tone="red">{t("status.paymentFailed")}</Badge>;
  if (s.paused_until) return <Badge tone="blue">{t("status.paused")}</Badge>;
  if (s.status === "cancelled" && s.active) return <Badge tone="amber">{t("status.cancelling")}</Badge>;
  if (s.in_trial_period) return <Badge tone="blue">{t("status.trial")}</Badge>;
  if (s.active) return <Badge tone="green">{t("status.active")}</Badge>;
  if (s.status === "pending") return <Badge tone="amber">{t("status.pending")}</Badge>;
  return <Badge tone="gray">{t("status.ended")}</Badge>;
}

type Panel = "none" | "switch" | "cancel" | "payment";

function Subscription({ s, reload }: { s: SubscriptionCard; reload: () => Promise<void> }) {
  const { t, rich } = useWords();
  // The dunning e-mail and the paywall's grace banner link to #payment-<id>: its form opens at once.
  const [open, setOpen] = useState<Panel>(() =>
    s.can_update_payment_method && window.location.hash === `#payment-${s.id}` ? "payment" : "none",
  );
  useEffect(() => {
    if (window.location.hash === `#payment-${s.id}`) document.getElementById(`payment-${s.id}`)?.scrollIntoView();
  }, [s.id]);
  const [notice, setNotice] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const headingId = `subscription-${s.id}-heading`;
  const done = async (message: string) => {
    setOpen("none");
    setNotice(message);
    await reload();
  };

  async function undo() {
    setPending(true);
    setProblem(null);
    const res = await sendJson("POST", `/api/member/subscriptions/${s.id}/undo-cancel`);
    setPending(false);
    if (res.ok) await done(t("card.undone"));
    else setProblem(problemText(t, res.problem, { UNPROCESSABLE: "card.undoRefused", NOT_FOUND: "card.notFound" }));
  }

  const scheduled = s.scheduled_switch;
  return (
    <Card className="p-5">
      <article
        id={`subscription-${s.id}`}
        aria-labelledby={headingId}
        className="space-y-3"
        data-testid="subscription-card"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="text-base font-semibold text-gray-900" dir="auto">
            {s.plan_name}
          </h3>
          <StatusBadge s={s} />
        </div>
        <p className="text-sm text-gray-700" data-testid="subscription-summary">
          {s.summary}
        </p>
        <p className="text-sm text-gray-600">
          {t(s.recurring ? "card.priceRecurring" : "card.priceOnce", { amount: s.amount, period: s.period })}
        </p>
        {s.credit ? (
          <p className="text-sm text-gray-700" data-testid="subscription-credit">
            {s.credit}
          </p>
        ) : null}
        {scheduled ? (
          <p className="text-sm text-gray-700">
            {scheduled.plan_name
              ? rich("card.scheduled", {
                  plan: <bdi>{scheduled.plan_name}</bdi>,
                  date: <LocalTime value={scheduled.scheduled_at} />,
                })
              : rich("card.scheduledOther", { date: <LocalTime value={scheduled.scheduled_at} /> })}
          </p>
        ) : null}

        {notice ? (
          <Alert tone="success" role="status">
            {notice}
          </Alert>
        ) : null}
        {problem ? <Alert tone="error">{problem}</Alert> : null}
        <div className="flex flex-wrap gap-2">
          {s.switch_options.length > 0 && open !== "switch" ? (
            <Button onClick={() => setOpen("switch")}>{t("card.changePlan")}</Button>
          ) : null}
          {s.can_undo_cancel ? (
            <Button variant="primary" loading={pending} loadingText={t("card.keeping")} onClick={() => void undo()}>
              {t("card.keep")}
            </Button>
          ) : null}
          {s.can_update_payment_method && open !== "payment" ? (
            <Button onClick={() => setOpen("payment")}>{t("card.updatePayment")}</Button>
          ) : null}
          {s.can_cancel && !s.cancelled && open !== "cancel" ? (
            <Button variant="secondary" onClick={() => setOpen("cancel")}>
              {t("card.cancel")}
            </Button>
          ) : null}
        </div>
        {open === "switch" ? <SwitchPlan s={s} onDone={done} onClose={() => setOpen("none")} /> : null}
        {open === "cancel" ? <CancelForm s={s} onDone={done} onClose={() => setOpen("none")} /> : null}
        {open === "payment" ? <PaymentMethod s={s} onDone={done} onClose={() => setOpen("none")} /> : null}
      </article>
    </Card>
  );
}
