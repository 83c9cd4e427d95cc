"use client";

/**
 * The demo paywall's test payment dialog (docs/subscriptions.md "Demo paywalled story"): it stands
 * in for a gateway's widget for the `demo_test` gateway; no card, no money moves.
 */
import type { RefObject } from "react";

import type { GatewayPayment } from "@/sdk/accesstype/types";

import type { DemoWords } from "./paywall-words";

export type Payment = {
  planTitle: string;
  amount: string;
  /** The coupon the preview applied, if any. */
  coupon: string | null;
  /** With a trial: what today's charge is, and when the first payment comes. */
  explanation: string | null;
  resolve: (p: GatewayPayment) => void;
  reject: (e: unknown) => void;
};

export function TestPaymentDialog({
  payment,
  payRef,
  words,
}: {
  payment: Payment;
  payRef: RefObject<HTMLButtonElement | null>;
  words: DemoWords;
}) {
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="test-payment-title"
      className="fixed inset-0 z-10 flex items-center justify-center bg-black/40 p-4"
    >
      <div className="w-full max-w-sm rounded-lg bg-white p-5 shadow-lg">
        <h2 id="test-payment-title" className="text-lg font-bold">
          {words.t("demo.testPayment")}
        </h2>
        <p className="mt-2 text-sm text-gray-700">
          {words.t("demo.testPaymentText", { plan: payment.planTitle, amount: payment.amount })}
        </p>
        {payment.coupon ? (
          <p className="mt-2 text-sm text-gray-700" data-testid="payment-coupon">
            {words.t("demo.couponApplied", { code: payment.coupon })}
          </p>
        ) : null}
        {payment.explanation ? (
          <p className="mt-2 text-sm text-gray-700" data-testid="trial-explanation">
            {payment.explanation}
          </p>
        ) : null}
        <div className="mt-4 flex flex-wrap gap-2">
          <button
            ref={payRef}
            type="button"
            onClick={() => payment.resolve({})}
            className="rounded bg-brand-700 px-3 py-1.5 font-semibold text-white"
          >
            {words.t("demo.payTest")}
          </button>
          <button
            type="button"
            onClick={() =>
              payment.reject({
                status: 0,
                error: { code: "PAYMENT_CANCELLED", message: words.t("demo.paymentCancelled") },
              })
            }
            className="rounded border border-gray-400 px-3 py-1.5"
          >
            {words.t("demo.cancel")}
          </button>
        </div>
      </div>
    </div>
  );
}
