"use client";

/**
 * The self-service card's three actions (./self-service.tsx): change plan (a preview in words, then
 * confirm), cancel with a reason or take the publisher's offer, update the payment method. The
 * API writes the preview and offer sentences in the reader's language; the page the rest.
 */
import { useState } from "react";

import { Alert, Button, buttonClasses, Fieldset, FormField, RadioChoices, Select, Textarea } from "@/components/ui";
import { CANCEL_REASONS, type TCancelReason } from "@/server/subscriptions/self-service/self-service.schema";

import { CardForm } from "./card-form";
import { useWords } from "./member-i18n";
import type { MemberKey } from "./member-words";
import { problemText } from "./problem-words";
import { sendJson, type Problem, type SubscriptionCard } from "./self-service-api";

type ActionProps = { s: SubscriptionCard; onDone: (message: string) => Promise<void>; onClose: () => void };

type Preview = {
  attempt_token: string;
  words: string;
  needs_payment: boolean;
  external_reference_id: string | null;
};

/**
 * "?time_zone=Europe/Paris": the browser's zone, so the server's sentences name their times in the
 * reader's zone like the times this page formats itself (nothing when the browser does not know its zone).
 */
export function readerZoneQuery(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && zone !== "Etc/Unknown" ? `?time_zone=${encodeURIComponent(zone)}` : "";
}

const SWITCH_PROBLEMS = {
  UNPROCESSABLE: "switch.refused",
  CONFLICT: "switch.priceChanged",
  PAYMENT_REQUIRED: "switch.paymentRefused",
  NOT_FOUND: "card.notFound",
} as const;

export function SwitchPlan({ s, onDone, onClose }: ActionProps) {
  const { t } = useWords();
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
      <FormField label={t("switch.newPlan")}>
        <Select
          value={planId}
          onChange={(e) => {
            setPlanId(e.target.value);
            setPreview(null);
          }}
        >
          {s.switch_options.map((o) => (
            <option key={o.id} value={o.id}>
              {t("switch.option", { plan: o.title, price: o.price, period: o.period })}
            </option>
          ))}
        </Select>
      </FormField>
      {preview ? (
        <div className="space-y-2 rounded-md bg-gray-50 p-3" data-testid="switch-preview">
          <p className="text-sm font-medium text-gray-900">{t("switch.whatHappens")}</p>
          <p className="text-sm text-gray-800">{preview.words}</p>
          {!payable ? <p className="text-sm text-gray-700">{t("switch.payAtCheckout")}</p> : null}
        </div>
      ) : null}
      {problem ? <Alert tone="error">{problemText(t, problem, SWITCH_PROBLEMS)}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        {preview ? (
          <Button
            variant="primary"
            loading={pending}
            loadingText={t("switch.changing")}
            disabled={!payable}
            onClick={() => void confirm()}
          >
            {t("switch.confirm")}
          </Button>
        ) : (
          <Button variant="primary" loading={pending} loadingText={t("switch.working")} onClick={() => void ask()}>
            {t("switch.preview")}
          </Button>
        )}
        <Button variant="secondary" onClick={onClose}>
          {t("common.close")}
        </Button>
      </div>
    </div>
  );
}

const REASON_KEYS = new Map<TCancelReason, MemberKey>([
  ["too_expensive", "cancel.reason.too_expensive"],
  ["not_using", "cancel.reason.not_using"],
  ["found_alternative", "cancel.reason.found_alternative"],
  ["technical", "cancel.reason.technical"],
  ["temporary", "cancel.reason.temporary"],
  ["other", "cancel.reason.other"],
]);

export function CancelForm({ s, onDone, onClose }: ActionProps) {
  const { t } = useWords();
  const [reason, setReason] = useState<TCancelReason | "">("");
  const [comment, setComment] = useState("");
  const [problem, setProblem] = useState<{ problem: Problem; kind: "cancel" | "offer" } | null>(null);
  const [noReason, setNoReason] = useState(false);
  const [pending, setPending] = useState<"cancel" | "offer" | null>(null);
  const base = `/api/member/subscriptions/${s.id}`;
  const options = (Object.keys(CANCEL_REASONS) as TCancelReason[]).map((value) => ({
    value,
    label: t(REASON_KEYS.get(value) ?? "cancel.reason.other"),
  }));

  async function send(kind: "cancel" | "offer") {
    setProblem(null);
    setNoReason(!reason);
    if (!reason) return;
    setPending(kind);
    const body = { reason, ...(comment.trim() ? { comment } : {}) };
    const res = await sendJson("POST", `${base}/${kind === "cancel" ? "cancel" : "retention-offer"}`, body);
    setPending(null);
    if (!res.ok) return setProblem({ problem: res.problem, kind });
    await onDone(kind === "cancel" ? t("cancel.done") : t("cancel.offerTaken"));
  }

  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" data-testid="cancel-form">
      <Fieldset legend={t("cancel.why")} error={noReason ? t("cancel.chooseReason") : undefined}>
        <RadioChoices name={`reason-${s.id}`} value={reason} options={options} onChange={(v) => setReason(v)} />
      </Fieldset>
      <FormField label={t("cancel.comment")} optional={t("common.optional")}>
        <Textarea value={comment} maxLength={1000} rows={3} dir="auto" onChange={(e) => setComment(e.target.value)} />
      </FormField>
      {s.offer ? (
        <div className="space-y-2 rounded-md bg-blue-50 p-3" data-testid="retention-offer">
          <p className="text-sm text-gray-900">{s.offer.words}</p>
          <Button
            variant="primary"
            loading={pending === "offer"}
            loadingText={t("cancel.applying")}
            onClick={() => void send("offer")}
          >
            {s.offer.kind === "pause" ? t("cancel.pauseInstead") : t("cancel.acceptOffer")}
          </Button>
        </div>
      ) : null}
      {problem ? (
        <Alert tone="error">
          {problemText(t, problem.problem, {
            UNPROCESSABLE: problem.kind === "offer" ? "cancel.offerGone" : "cancel.refused",
            NOT_FOUND: "card.notFound",
          })}
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          loading={pending === "cancel"}
          loadingText={t("cancel.cancelling")}
          onClick={() => void send("cancel")}
        >
          {t("cancel.confirm")}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          {t("cancel.keepIt")}
        </Button>
      </div>
    </div>
  );
}

export function PaymentMethod(props: ActionProps) {
  const way = props.s.payment_method_update;
  return way?.kind === "hosted" ? <HostedPaymentMethod {...props} way={way} /> : <PaymentMethodForm {...props} />;
}

/** A gateway that takes the new card on its own page (Razorpay): a link there; its webhook reports the card. */
function HostedPaymentMethod({ s, onClose, way }: ActionProps & { way: { provider_name: string; href: string } }) {
  const { t, rich } = useWords();
  const provider = <bdi>{way.provider_name}</bdi>;
  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" id={`payment-${s.id}`} data-testid="payment-method">
      <p className="text-sm text-gray-700">{rich("payment.hostedText", { provider })}</p>
      <div className="flex flex-wrap gap-2">
        <a href={way.href} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: "primary" })}>
          {rich("payment.hostedLink", { provider })}
        </a>
        <Button variant="secondary" onClick={onClose}>
          {t("common.close")}
        </Button>
      </div>
    </div>
  );
}

function PaymentMethodForm({ s, onDone, onClose }: ActionProps) {
  const { t } = useWords();
  return (
    <div className="space-y-3 border-t border-gray-200 pt-3" id={`payment-${s.id}`} data-testid="payment-method">
      <CardForm
        paymentType={s.payment_type}
        url={`/api/member/subscriptions/${s.id}/payment-method`}
        onSaved={() => onDone(t("payment.saved"))}
      >
        <Button variant="secondary" onClick={onClose}>
          {t("common.close")}
        </Button>
      </CardForm>
    </div>
  );
}
