"use client";

/**
 * A subscriber's payments (with their refunds, and the refund form) beside their failed renewal
 * charges, and the subscription webhooks sent about them (tRPC revenue.subscriberActivity, revenue.refund), for the Subscribers page.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";

import { FailedChargeRow } from "@/components/subscriptions/failed-charge";
import { InvoicesList } from "@/components/subscriptions/invoices-list";
import { invalidateMoneyViews } from "@/components/subscriptions/money-views";
import { useTRPC } from "@/components/trpc/react";
import type { RouterOutputs } from "@/components/trpc/types";
import {
  Alert,
  Badge,
  Button,
  DateTime,
  DetailSection,
  ErrorAlert,
  FormActions,
  FormField,
  Input,
  LoadState,
  serverErrors,
  useConfirm,
  useFigureFormats,
  type BadgeTone,
} from "@/components/ui";
import { ownValue } from "@/server/own-keys";
import { centsToDecimal, decimalToCents } from "@/server/subscriptions/money.schema";
import { ZRefundPaymentInput } from "@/server/subscriptions/reports/revenue.schema";
import { paymentStatusLabel } from "@/server/subscriptions/subscribers/subscription-status.schema";

type Activity = RouterOutputs["revenue"]["subscriberActivity"];
type Payment = Activity["payments"][number];

const PAYMENT_TONES: Record<string, BadgeTone> = {
  captured: "green",
  refunded: "gray",
  pending: "amber",
  authorized: "amber",
  failed: "red",
};
/** A dispute's standing, as revenue staff read it. */
const DISPUTE_WORDS = new Map([
  ["open", "Disputed"],
  ["won", "Dispute won"],
  ["lost", "Dispute lost"],
]);
const DELIVERY_TONES: Record<string, BadgeTone> = { succeeded: "green", pending: "amber", failed: "red" };

export function SubscriberActivity({ memberId }: { memberId: number }) {
  const trpc = useTRPC();
  const activity = useQuery(trpc.revenue.subscriberActivity.queryOptions({ memberId }));
  const data = activity.data;
  return (
    <>
      <DetailSection title="Payments">
        <LoadState
          query={activity}
          what="payments"
          empty={data?.payments.length === 0 && data.failed_charges.length === 0}
          emptyText="No payments recorded."
        />
        {data && (data.payments.length || data.failed_charges.length) ? (
          <ul className="space-y-3" data-testid="subscriber-payments">
            {byDateDesc(data).map((entry) =>
              entry.kind === "payment" ? (
                <PaymentRow key={`p${entry.payment.id}`} payment={entry.payment} />
              ) : (
                <FailedChargeRow key={`f${entry.charge.id}`} charge={entry.charge} withSubscription />
              ),
            )}
          </ul>
        ) : null}
      </DetailSection>

      <InvoicesList memberId={memberId} />

      <DetailSection title="Subscription webhooks">
        {data && data.webhooks.length === 0 ? (
          <p className="text-gray-600">No webhooks about this subscriber.</p>
        ) : null}
        {data?.webhooks.length ? (
          <ul className="space-y-2" data-testid="subscriber-webhooks">
            {data.webhooks.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center gap-2">
                <DateTime value={new Date(w.occurred_at)} />
                <Badge tone="gray">{w.name}</Badge>
                {w.subscription_id ? <span className="text-gray-600">#{w.subscription_id}</span> : null}
                {w.deliveries.length ? (
                  w.deliveries.map((d) => (
                    <span key={d.id} className="flex min-w-0 flex-wrap items-center gap-1">
                      <Badge tone={ownValue(DELIVERY_TONES, d.status) ?? "gray"}>{paymentStatusLabel(d.status)}</Badge>
                      <span className="text-xs break-all text-gray-600">
                        {d.endpoint_url} · {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                        {d.last_status_code ? ` · HTTP ${d.last_status_code}` : ""}
                      </span>
                    </span>
                  ))
                ) : (
                  <span className="text-xs text-gray-600">no endpoint received it</span>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </DetailSection>
    </>
  );
}

/** Payments and failed renewal charges in one list, newest first. */
function byDateDesc(data: Activity) {
  const entries = [
    ...data.payments.map((payment) => ({ kind: "payment" as const, at: payment.created_at, payment })),
    ...data.failed_charges.map((charge) => ({ kind: "failed" as const, at: charge.failed_at, charge })),
  ];
  return entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

function PaymentRow({ payment: p }: { payment: Payment }) {
  const { formatMoney } = useFigureFormats();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const remaining = p.amount_cents - p.refunded_cents;
  const refund = useMutation(
    trpc.revenue.refund.mutationOptions({
      onSuccess: async (out) => {
        setDone(`Refunded ${formatMoney(out.refund.amount_cents, out.refund.currency)}.`);
        setOpen(false);
        setAmount("");
        setReason("");
        // The credit note it issued and the invoice's status too (invoices.*), at once.
        await invalidateMoneyViews(queryClient, trpc);
      },
    }),
  );
  const errors = serverErrors(refund.error, ["amountCents"]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const cents = amount.trim() === "" ? remaining : decimalToCents(amount.trim(), p.currency);
    if (cents === null || cents <= 0)
      return setProblem(`Enter an amount in ${p.currency}, e.g. ${centsToDecimal(remaining, p.currency)}.`);
    if (cents > remaining) return setProblem(`At most ${formatMoney(remaining, p.currency)} is left to refund.`);
    const input = ZRefundPaymentInput.safeParse({ paymentId: p.id, amountCents: cents, reason: reason || undefined });
    if (!input.success) return setProblem(input.error.issues[0]?.message ?? "Check the amount.");
    const ok = await confirm({
      title: `Refund ${formatMoney(cents, p.currency)}?`,
      body: `Payment #${p.id} (${p.payment_type}) goes back to the reader through its gateway. This cannot be undone.`,
      confirmLabel: "Refund",
    });
    if (ok) refund.mutate(input.data);
  };

  return (
    <li className="space-y-2 rounded border border-gray-200 p-3" data-testid={`payment-${p.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{formatMoney(p.amount_cents, p.currency)}</span>
        <Badge tone={ownValue(PAYMENT_TONES, p.status) ?? "gray"}>{paymentStatusLabel(p.status)}</Badge>
        <Badge tone="gray">{p.payment_type}</Badge>
        <span className="text-gray-600">
          #{p.id}
          {p.plan_name ? ` · ${p.plan_name}` : ""} · <DateTime value={new Date(p.created_at)} />
        </span>
        {p.disputes.map((d) => (
          <Badge key={d.id} tone={d.status === "lost" ? "red" : d.status === "won" ? "green" : "amber"}>
            {DISPUTE_WORDS.get(d.status) ?? "Disputed"}
          </Badge>
        ))}
        {p.refunded_cents > 0 ? (
          <span className="text-gray-600" data-testid="payment-refunded">
            refunded {formatMoney(p.refunded_cents, p.currency)}
          </span>
        ) : null}
        {p.status === "captured" && remaining > 0 && !open ? (
          <Button size="sm" variant="secondary" onClick={() => (setOpen(true), setDone(null))}>
            Refund…
          </Button>
        ) : null}
      </div>
      {done ? <Alert tone="success">{done}</Alert> : null}
      {open ? (
        <form className="space-y-3" onSubmit={(e) => void onSubmit(e)} aria-label={`Refund payment #${p.id}`}>
          <ErrorAlert error={refund.error} errors={errors} />
          <div className="flex flex-wrap gap-3">
            <FormField
              label={`Amount (${p.currency})`}
              hint={`Empty: all that is left, ${centsToDecimal(remaining, p.currency)}.`}
              error={problem ?? errors.fields.amountCents}
            >
              <Input
                inputMode="decimal"
                name="amount"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                placeholder={centsToDecimal(remaining, p.currency)}
                fit
              />
            </FormField>
            <FormField label="Reason" optional>
              <Input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} fit />
            </FormField>
          </div>
          <FormActions>
            <Button type="submit" variant="danger" loading={refund.isPending} loadingText="Refunding…">
              Refund
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </FormActions>
        </form>
      ) : null}
      {p.disputes.length ? (
        <ul className="space-y-1 text-xs text-gray-600" data-testid="payment-disputes">
          {p.disputes.map((d) => (
            <li key={d.id} className="flex flex-wrap gap-2">
              <DateTime value={new Date(d.opened_at)} />
              <span>
                disputed {formatMoney(d.amount_cents, p.currency)} at the gateway
                {d.reason ? ` (${d.reason})` : ""}
                {d.closed_at ? (
                  <>
                    {" "}
                    · {d.status} <DateTime value={new Date(d.closed_at)} />
                  </>
                ) : (
                  " · open: the card's bank decides"
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {p.refunds.length ? (
        <ul className="space-y-1 text-xs text-gray-600" data-testid="payment-refunds">
          {p.refunds.map((r) => (
            <li key={r.id} className="flex flex-wrap gap-2">
              <DateTime value={new Date(r.created_at)} />
              <span>
                refund {formatMoney(r.amount_cents, p.currency)} · {paymentStatusLabel(r.status).toLowerCase()}
                {r.by ? ` by ${r.by}` : ""}
                {r.reason ? ` (“${r.reason}”)` : ""}
                {r.error ? `: ${r.error}` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
