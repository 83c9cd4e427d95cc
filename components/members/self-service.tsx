"use client";

/**
 * The readers' self-service page (app/member/subscriptions): their subscriptions and invoices,
 * change plan (a preview in words, then confirm), cancel with a reason or take the publisher's
 * offer, undo a cancel, update the payment method. It talks to the member API of the publisher's
 * host (/api/member/subscriptions…, the session cookie); every figure and sentence it shows comes
 * from the server, which honours exactly what it previewed. Every time is in the reader's browser's
 * zone, named: the page sends it (`?time_zone=`) for the server's sentences and formats the rest
 * itself (invoices, a scheduled change), only after the client has loaded them (no server render
 * to mismatch).
 */
import { useCallback, useEffect, useState } from "react";

import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  Card,
  DateTime,
  Fieldset,
  FormField,
  RadioChoices,
  Select,
  Textarea,
  TextLink,
  textLinkClasses,
} from "@/components/ui";
import { CANCEL_REASONS, type TCancelReason } from "@/server/subscriptions/self-service.schema";

import { CardForm } from "./card-form";
import { framedByAllowedSite } from "./frame-guard";
import {
  readerFromHash,
  readerFromMessage,
  SELF_SERVICE_PATH,
  sendJson,
  startSession,
  type CreditNote,
  type Invoice,
  type Overview,
  type Problem,
  type SubscriptionCard,
} from "./self-service-api";
import { NewsletterSection } from "./self-service-newsletters";

/**
 * "?time_zone=Europe/Paris": the browser's zone, so the server's sentences name their times in the
 * reader's zone like the times this page formats itself (nothing when the browser does not know its zone).
 */
function readerZoneQuery(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && zone !== "Etc/Unknown" ? `?time_zone=${encodeURIComponent(zone)}` : "";
}

export function SelfService({ frameHosts }: { frameHosts: string[] }) {
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

  if (state === "loading") return <p className="text-sm text-gray-600">Loading your subscriptions…</p>;
  if (state === "foreign-frame")
    return (
      <Alert tone="info">
        This page works on the publication&apos;s own site.{" "}
        <a className={textLinkClasses} href={SELF_SERVICE_PATH} target="_blank" rel="noopener">
          Open your subscriptions
        </a>
      </Alert>
    );
  if (state === "signed-out")
    return (
      <Alert tone="info">
        Sign in to see and manage your subscriptions.{" "}
        <TextLink href={`/member/login?return_to=${encodeURIComponent(SELF_SERVICE_PATH)}`}>Sign in</TextLink>
      </Alert>
    );
  if (state === "error" || !data)
    return <Alert tone="error">Your subscriptions could not be loaded. Reload the page to try again.</Alert>;
  return (
    <div className="space-y-8">
      <section aria-labelledby="subscriptions-heading" className="space-y-4">
        <h2 id="subscriptions-heading" className="text-base font-semibold text-gray-900">
          Subscriptions
        </h2>
        {data.subscriptions.length === 0 ? (
          <p className="text-sm text-gray-600">You have no subscriptions.</p>
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

function statusBadge(s: SubscriptionCard) {
  if (s.in_grace_period) return <Badge tone="red">Payment failed</Badge>;
  if (s.paused_until) return <Badge tone="blue">Paused</Badge>;
  if (s.status === "cancelled" && s.active) return <Badge tone="amber">Cancelling</Badge>;
  if (s.in_trial_period) return <Badge tone="blue">Free trial</Badge>;
  if (s.active) return <Badge tone="green">Active</Badge>;
  if (s.status === "pending") return <Badge tone="amber">Pending</Badge>;
  return <Badge tone="gray">Ended</Badge>;
}

type Panel = "none" | "switch" | "cancel" | "payment";

function Subscription({ s, reload }: { s: SubscriptionCard; reload: () => Promise<void> }) {
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
    if (res.ok) await done("Your subscription continues: nothing is cancelled.");
    else setProblem(res.problem.message);
  }

  return (
    <Card className="p-5">
      <article
        id={`subscription-${s.id}`}
        aria-labelledby={headingId}
        className="space-y-3"
        data-testid="subscription-card"
      >
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id={headingId} className="text-base font-semibold text-gray-900">
            {s.plan_name}
          </h3>
          {statusBadge(s)}
        </div>
        <p className="text-sm text-gray-700" data-testid="subscription-summary">
          {s.summary}
        </p>
        <p className="text-sm text-gray-600">
          {s.recurring ? `${s.amount} ${s.period}` : `${s.amount} for ${s.period}`}
        </p>
        {s.credit ? (
          <p className="text-sm text-gray-700" data-testid="subscription-credit">
            {s.credit}
          </p>
        ) : null}
        {s.scheduled_switch ? (
          <p className="text-sm text-gray-700">
            Changing to {s.scheduled_switch.plan_name ?? "another plan"} on{" "}
            <DateTime value={new Date(s.scheduled_switch.scheduled_at)} />.
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
            <Button onClick={() => setOpen("switch")}>Change plan</Button>
          ) : null}
          {s.can_undo_cancel ? (
            <Button variant="primary" loading={pending} loadingText="Keeping…" onClick={() => void undo()}>
              Keep my subscription
            </Button>
          ) : null}
          {s.can_update_payment_method && open !== "payment" ? (
            <Button onClick={() => setOpen("payment")}>Update payment method</Button>
          ) : null}
          {s.can_cancel && !s.cancelled && open !== "cancel" ? (
            <Button variant="secondary" onClick={() => setOpen("cancel")}>
              Cancel subscription
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

type ActionProps = { s: SubscriptionCard; onDone: (message: string) => Promise<void>; onClose: () => void };

type Preview = {
  attempt_token: string;
  words: string;
  needs_payment: boolean;
  external_reference_id: string | null;
};

function SwitchPlan({ s, onDone, onClose }: ActionProps) {
  const [planId, setPlanId] = useState<string>(String(s.switch_options[0]?.id ?? ""));
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [pending, setPending] = useState(false);
  const base = `/api/member/subscriptions/${s.id}/switch`;

  async function ask() {
    setPending(true);
    setProblem(null);
    const res = await sendJson("POST", `${base}/preview${readerZoneQuery()}`, { subscription_plan_id: Number(planId) });
    setPending(false);
    if (res.ok) setPreview(res.body as Preview);
    else setProblem(res.problem);
  }
  async function confirm() {
    if (!preview) return;
    setPending(true);
    setProblem(null);
    // The demo publisher's test gateway "pays" its own order; a real gateway's form would hand back its payment.
    const demo = preview.external_reference_id?.startsWith("demo_order_")
      ? { payment_token: preview.external_reference_id.replace(/^demo_order_/, "demo_pay_") }
      : {};
    const res = await sendJson("POST", `${base}${readerZoneQuery()}`, {
      attempt_token: preview.attempt_token,
      ...demo,
    });
    setPending(false);
    if (res.ok) await onDone((res.body as { message: string }).message);
    else {
      setProblem(res.problem);
      if (res.status === 409) setPreview(null); // the price changed: preview again
    }
  }
  const payable = !preview?.needs_payment || preview.external_reference_id?.startsWith("demo_order_");

  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" data-testid="switch-plan">
      <FormField label="New plan">
        <Select
          value={planId}
          onChange={(e) => {
            setPlanId(e.target.value);
            setPreview(null);
          }}
        >
          {s.switch_options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.title}: {o.price} per {o.period}
            </option>
          ))}
        </Select>
      </FormField>
      {preview ? (
        <div className="space-y-2 rounded-md bg-gray-50 p-3" data-testid="switch-preview">
          <p className="text-sm font-medium text-gray-900">What happens</p>
          <p className="text-sm text-gray-800">{preview.words}</p>
          {!payable ? (
            <p className="text-sm text-gray-700">This change is paid now through the publication&apos;s checkout.</p>
          ) : null}
        </div>
      ) : null}
      {problem ? <Alert tone="error">{problem.message}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {preview ? (
          <Button
            variant="primary"
            loading={pending}
            loadingText="Changing…"
            disabled={!payable}
            onClick={() => void confirm()}
          >
            Confirm change
          </Button>
        ) : (
          <Button variant="primary" loading={pending} loadingText="Working it out…" onClick={() => void ask()}>
            Preview change
          </Button>
        )}
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

function CancelForm({ s, onDone, onClose }: ActionProps) {
  const [reason, setReason] = useState<TCancelReason | "">("");
  const [comment, setComment] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [pending, setPending] = useState<"cancel" | "offer" | null>(null);
  const base = `/api/member/subscriptions/${s.id}`;
  const options = (Object.keys(CANCEL_REASONS) as TCancelReason[]).map((value) => ({
    value,
    label: CANCEL_REASONS[value],
  }));

  async function send(kind: "cancel" | "offer") {
    if (!reason) {
      setProblem({ message: "Choose a reason.", field: "reason" });
      return;
    }
    setPending(kind);
    setProblem(null);
    const body = { reason, ...(comment.trim() ? { comment } : {}) };
    const res = await sendJson("POST", `${base}/${kind === "cancel" ? "cancel" : "retention-offer"}`, body);
    setPending(null);
    if (!res.ok) return setProblem(res.problem);
    await onDone(
      kind === "cancel"
        ? "Cancelled: you keep access until the end of the period, and you can change your mind until then."
        : "Thank you for staying: the offer is applied.",
    );
  }

  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" data-testid="cancel-form">
      <Fieldset legend="Why are you cancelling?" error={problem?.field === "reason" ? problem.message : undefined}>
        <RadioChoices name={`reason-${s.id}`} value={reason} options={options} onChange={(v) => setReason(v)} />
      </Fieldset>
      <FormField label="Anything else you want to tell us?" optional>
        <Textarea value={comment} maxLength={1000} rows={3} onChange={(e) => setComment(e.target.value)} />
      </FormField>
      {s.offer ? (
        <div className="space-y-2 rounded-md bg-blue-50 p-3" data-testid="retention-offer">
          <p className="text-sm text-gray-900">{s.offer.words}</p>
          <Button
            variant="primary"
            loading={pending === "offer"}
            loadingText="Applying…"
            onClick={() => void send("offer")}
          >
            {s.offer.kind === "pause" ? "Pause instead" : "Accept the offer"}
          </Button>
        </div>
      ) : null}
      {problem && problem.field !== "reason" ? <Alert tone="error">{problem.message}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          loading={pending === "cancel"}
          loadingText="Cancelling…"
          onClick={() => void send("cancel")}
        >
          Confirm cancellation
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Keep it
        </Button>
      </div>
    </div>
  );
}

function PaymentMethod(props: ActionProps) {
  const way = props.s.payment_method_update;
  return way?.kind === "hosted" ? <HostedPaymentMethod {...props} way={way} /> : <PaymentMethodForm {...props} />;
}

/** A gateway that takes the new card on its own page (Razorpay): a link there; its webhook reports the card. */
function HostedPaymentMethod({ s, onClose, way }: ActionProps & { way: { provider_name: string; href: string } }) {
  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" id={`payment-${s.id}`} data-testid="payment-method">
      <p className="text-sm text-gray-700">
        {way.provider_name} keeps the card of this subscription: change it on {way.provider_name}&apos;s own page, which
        opens in a new tab. Your next charges use the new card once {way.provider_name} confirms it.
      </p>
      <div className="flex flex-wrap gap-2">
        <a href={way.href} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: "primary" })}>
          Update your card at {way.provider_name}
        </a>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}

function PaymentMethodForm({ s, onDone, onClose }: ActionProps) {
  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" id={`payment-${s.id}`} data-testid="payment-method">
      <CardForm paymentType={s.payment_type} url={`/api/member/subscriptions/${s.id}/payment-method`} onSaved={onDone}>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </CardForm>
    </div>
  );
}

function Invoices({ invoices }: { invoices: Invoice[] }) {
  return (
    <section aria-labelledby="invoices-heading" className="space-y-3">
      <h2 id="invoices-heading" className="text-base font-semibold text-gray-900">
        Invoices
      </h2>
      {invoices.length === 0 ? (
        <p className="text-sm text-gray-600">No invoices yet.</p>
      ) : (
        <ul className="divide-y divide-gray-200 rounded-md border border-gray-200 bg-white">
          {invoices.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
              <span className="text-gray-900">
                Invoice {i.number} · <DateTime value={new Date(i.created_at)} /> · {i.amount}
              </span>
              <a className={textLinkClasses} href={i.pdf_href} download>
                Download PDF<span className="sr-only"> of invoice {i.number}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CreditNotes({ notes }: { notes: CreditNote[] }) {
  return (
    <section aria-labelledby="credit-notes-heading" className="space-y-3">
      <h2 id="credit-notes-heading" className="text-base font-semibold text-gray-900">
        Refunds (credit notes)
      </h2>
      <ul className="divide-y divide-gray-200 rounded-md border border-gray-200 bg-white">
        {notes.map((n) => (
          <li key={n.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
            <span className="text-gray-900">
              Credit note {n.number} for invoice {n.invoice_number} · <DateTime value={new Date(n.created_at)} /> ·{" "}
              {n.amount}
            </span>
            <a className={textLinkClasses} href={n.pdf_href} download>
              Download PDF<span className="sr-only"> of credit note {n.number}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
