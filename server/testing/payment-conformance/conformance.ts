/**
 * The payment-adapter conformance kit (docs/subscriptions.md "Writing a payment adapter"): one
 * suite of checks every adapter must pass, run against a fake gateway that answers in the
 * gateway's documented shapes. It checks the contract of ../adapter.ts and interface-spec §6:
 *
 *   contract   paymentTypes, provider, callers, takesPayment; mapped jobs are the spec's jobs
 *   preview    preparePayment makes a reference and hands the browser no secret
 *   verify     a captured payment of the order is "captured" with its ids; another order's
 *              payment, a declined one, and (where the gateway can take one) another amount fail
 *   webhooks   webhook_request_authorized?: the gateway's own signature passes; a changed body, a
 *              changed or truncated signature, no signature, another secret, no secret fail, and
 *              a signature of another length returns false instead of throwing. Each mapping key
 *              is an event whose webhook_event_details names that very event (spec §6: "keys
 *              must match"), with the payment's id, amount and currency; a repeated delivery has
 *              the same event id; a body that is not an event is a PaymentAdapterError
 *   absence    before_exit_on_subscription_absence refunds a captured payment in full, once (a
 *              second run is harmless), and cancels the gateway subscription of a recurring one
 *   renewal    renewal reports the gateway subscription's current end
 *
 * Constant time: whether signatures are compared in constant time cannot be observed reliably
 * from a test (the HMAC's cost drowns the comparison's); the kit checks the behaviour around it
 * (length mismatches, case) and the adapter's review must check the comparison itself.
 *
 * Usage, from a `*.test.ts` (no database) or `*.int.test.ts` next to the adapter:
 *
 *   describeAdapterConformance("razorpay", (gateway) => createRazorpayAdapter({ fetch: … }), () => fakeGateway());
 */
import { describe, expect, it } from "vitest";

import {
  PaymentAdapterError,
  type GatewayCredentials,
  type GatewayEventDetails,
  type GatewayRequest,
  type PaymentAdapter,
  type PaymentIntent,
  type PaymentProof,
  type PreparedPayment,
} from "../../subscriptions/payments/adapter";
import { GATEWAY_JOB_NAMES } from "../../subscriptions/payments/jobs";

/** One payment the fake gateway made: what checkout prepared, and the proof the reader's browser sent. */
type FakePayment = { intent: PaymentIntent; prepared: PreparedPayment; proof: PaymentProof };

/**
 * A stand-in for the gateway, built from its documented payloads. Every part an adapter does not
 * use is left out (an adapter without webhooks: no `webhooks`), and the kit checks the adapter
 * then refuses what it does not take.
 */
export type FakeGateway = {
  /** Credentials the gateway accepts; null when the adapter needs none (provider null). */
  credentials: GatewayCredentials | null;
  /** What a payment intent must hold for this gateway (its currency, an account it serves…). */
  intent?: Partial<PaymentIntent>;
  /** The reader pays the prepared order in the gateway's widget: the proof the create sends. */
  pay(args: {
    intent: PaymentIntent;
    prepared: PreparedPayment;
    outcome: "captured" | "authorized" | "declined";
    /** A payment of another amount on the same order (only when `takesOtherAmounts`). */
    amountCents?: number;
  }): PaymentProof | Promise<PaymentProof>;
  /** Whether the gateway can take a payment of another amount than the order's (the kit then checks it fails). */
  takesOtherAmounts: boolean;
  /** Whether the gateway has an authorized-but-not-captured state. */
  authorizes: boolean;
  webhooks?: {
    /** The webhook the gateway sends for `event` about `payment`, signed with `secret`. */
    send(event: string, payment: FakePayment, secret: string): GatewayRequest | Promise<GatewayRequest>;
    /** The header carrying the signature (to corrupt it). */
    signatureHeader: string;
  };
  /** Total refunded of a payment (absence). */
  refundedCents?(externalPaymentId: string): number;
  /** Recurring payments: the intent of a recurring plan, the gateway subscription's state and end. */
  recurring?: {
    intent: Partial<PaymentIntent>;
    subscriptionStatus(externalSubscriptionId: string): string | null;
    setCurrentEnd(externalSubscriptionId: string, end: Date): void;
  };
};

const ATTEMPT_IDS = ["6f1c9a2e-0b7d-4e3a-9c58-1d2e3f4a5b60", "7a2d0b3f-1c8e-4f4b-8d69-2e3f4a5b6c71"];

function baseIntent(gateway: FakeGateway, over: Partial<PaymentIntent> = {}): PaymentIntent {
  return {
    accountId: 1,
    attemptId: ATTEMPT_IDS[0]!,
    amountCents: 49_900,
    currency: "INR",
    recurring: false,
    plan: { id: 3, title: "Monthly" },
    subscriber: { id: 1, name: "Ada", email: "ada@example.com", phone: null },
    ...gateway.intent,
    ...over,
  };
}

/** Register the conformance suite of one adapter. */
// eslint-disable-next-line max-lines-per-function -- the conformance suite: one describe of short cases that every adapter runs
export function describeAdapterConformance(
  name: string,
  makeAdapter: (gateway: FakeGateway) => PaymentAdapter,
  fakeGateway: () => FakeGateway,
) {
  const setup = () => {
    const gateway = fakeGateway();
    return { gateway, adapter: makeAdapter(gateway), creds: gateway.credentials };
  };

  async function paid(
    gateway: FakeGateway,
    adapter: PaymentAdapter,
    outcome: "captured" | "authorized" | "declined" = "captured",
    over: Partial<PaymentIntent> = {},
  ): Promise<FakePayment> {
    const intent = baseIntent(gateway, over);
    const prepared = await adapter.preparePayment(gateway.credentials, intent);
    const proof = await gateway.pay({ intent, prepared, outcome });
    return { intent, prepared, proof };
  }

  // eslint-disable-next-line max-lines-per-function -- the conformance suite: one describe of short cases that every adapter runs
  describe(`payment adapter conformance: ${name}`, () => {
    describe("contract", () => {
      it("names its payment types, provider, callers and whether it takes a payment", () => {
        const { adapter, creds } = setup();
        expect(adapter.paymentTypes.length).toBeGreaterThan(0);
        for (const t of adapter.paymentTypes) expect(t).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(["server", "any"]).toContain(adapter.callers);
        expect(typeof adapter.takesPayment).toBe("boolean");
        if (adapter.provider === null) expect(creds).toBeNull();
        else expect(creds).not.toBeNull();
      });

      it("maps gateway events only to the spec's jobs", () => {
        const { adapter } = setup();
        for (const job of Object.values(adapter.webhookEventTypeMapping()))
          expect(GATEWAY_JOB_NAMES as readonly string[]).toContain(job);
      });
    });

    describe("preview and verify", () => {
      it("prepares a reference for the payment and hands the browser no secret", async () => {
        const { gateway, adapter, creds } = setup();
        const prepared = await adapter.preparePayment(creds, baseIntent(gateway));
        if (adapter.takesPayment) expect(prepared.externalReferenceId).toEqual(expect.any(String));
        const visible = JSON.stringify(prepared);
        if (creds?.secret) expect(visible).not.toContain(creds.secret);
        if (creds?.webhook_secret) expect(visible).not.toContain(creds.webhook_secret);
      });

      it("captures a captured payment of the order, with its ids", async () => {
        const { gateway, adapter, creds } = setup();
        const payment = await paid(gateway, adapter);
        const verified = await adapter.verifyPayment(creds, payment.intent, payment.proof);
        expect(verified.status).toBe("captured");
        expect(verified.externalOrderId).toBe(payment.prepared.externalReferenceId);
        if (adapter.takesPayment) expect(verified.externalPaymentId).toEqual(expect.any(String));
        const stored = JSON.stringify(verified.details ?? {});
        if (creds?.secret) expect(stored).not.toContain(creds.secret);
      });

      it("does not capture a declined payment", async () => {
        const { gateway, adapter, creds } = setup();
        const payment = await paid(gateway, adapter, "declined");
        const verified = await adapter.verifyPayment(creds, payment.intent, payment.proof);
        expect(verified.status).toBe("failed");
        expect(verified.reason).toEqual(expect.any(String));
      });

      it("does not capture another order's payment", async () => {
        const { gateway, adapter, creds } = setup();
        if (!adapter.takesPayment) return;
        const mine = await paid(gateway, adapter);
        const other = await paid(gateway, adapter, "captured", { attemptId: ATTEMPT_IDS[1]! });
        // The other order's proof, presented for mine (the order frozen in my attempt).
        const verified = await adapter.verifyPayment(creds, mine.intent, {
          ...other.proof,
          externalReferenceId: mine.prepared.externalReferenceId,
        });
        expect(verified.status).toBe("failed");
      });

      it("does not capture a payment of another amount than the order's", async () => {
        const { gateway, adapter, creds } = setup();
        if (!gateway.takesOtherAmounts) return;
        const intent = baseIntent(gateway);
        const prepared = await adapter.preparePayment(creds, intent);
        const proof = await gateway.pay({
          intent,
          prepared,
          outcome: "captured",
          amountCents: intent.amountCents - 100,
        });
        expect((await adapter.verifyPayment(creds, intent, proof)).status).toBe("failed");
      });

      it("leaves an authorized payment uncaptured", async () => {
        const { gateway, adapter, creds } = setup();
        if (!gateway.authorizes) return;
        const payment = await paid(gateway, adapter, "authorized");
        expect(["authorized", "pending"]).toContain(
          (await adapter.verifyPayment(creds, payment.intent, payment.proof)).status,
        );
      });
    });

    describe("webhooks (spec §6)", () => {
      it("refuses every request when it takes no webhooks", async () => {
        const { gateway, adapter } = setup();
        if (gateway.webhooks) return;
        expect(adapter.webhookEventTypeMapping()).toEqual({});
        const creds = gateway.credentials ?? {
          app_key: "k",
          secret: "s",
          enabled: true,
          webhook_secret: "w",
          environment: "sandbox" as const,
        };
        expect(adapter.webhookRequestAuthorized(creds, { headers: new Headers(), rawBody: "{}" })).toBe(false);
        expect(() => adapter.webhookEventDetails({ headers: new Headers(), rawBody: "{}" })).toThrow(
          PaymentAdapterError,
        );
      });

      it("authorizes exactly what the gateway signed with the webhook secret", async () => {
        const { gateway, adapter, creds } = setup();
        const hooks = gateway.webhooks;
        if (!hooks) return;
        const secret = creds!.webhook_secret!;
        const payment = await paid(gateway, adapter);
        const event = Object.keys(adapter.webhookEventTypeMapping())[0]!;
        const good = await hooks.send(event, payment, secret);
        const authorized = (request: GatewayRequest, c: GatewayCredentials = creds!) =>
          adapter.webhookRequestAuthorized(c, request);
        expect(authorized(good)).toBe(true);

        const signature = good.headers.get(hooks.signatureHeader) ?? "";
        const withSignature = (value: string | null) => {
          const headers = new Headers(good.headers);
          if (value === null) headers.delete(hooks.signatureHeader);
          else headers.set(hooks.signatureHeader, value);
          return { headers, rawBody: good.rawBody };
        };
        const flipped = signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0");
        expect(authorized(withSignature(flipped))).toBe(false);
        expect(authorized(withSignature(null))).toBe(false);
        expect(authorized(withSignature(""))).toBe(false);
        // Another length: false, not an exception (a constant-time compare of unequal lengths throws).
        expect(authorized(withSignature(signature.slice(0, -2)))).toBe(false);
        expect(authorized(withSignature(`${signature}00`))).toBe(false);
        // The body changed by one character.
        expect(authorized({ headers: good.headers, rawBody: `${good.rawBody} ` })).toBe(false);
        // Signed with another secret, or the account has no webhook secret.
        expect(authorized(await hooks.send(event, payment, `${secret}x`))).toBe(false);
        expect(authorized(good, { ...creds!, webhook_secret: `${secret}x` })).toBe(false);
        expect(authorized(good, { ...creds!, webhook_secret: null })).toBe(false);
      });

      it("reads every mapped event with that very event name, the payment and a stable event id", async () => {
        const { gateway, adapter, creds } = setup();
        const hooks = gateway.webhooks;
        if (!hooks) return;
        const mapping = adapter.webhookEventTypeMapping();
        expect(Object.keys(mapping).length).toBeGreaterThan(0);
        for (const [event, job] of Object.entries(mapping)) {
          const recurring = !["one_time_subscription_charged", "payment_refunded", "payment_disputed"].includes(job);
          if (recurring && !gateway.recurring) continue;
          const payment = await paid(gateway, adapter, "captured", recurring ? gateway.recurring!.intent : {});
          const request = await hooks.send(event, payment, creds!.webhook_secret!);
          expect(adapter.webhookRequestAuthorized(creds!, request), event).toBe(true);
          const details: GatewayEventDetails = adapter.webhookEventDetails(request);
          expect(details.event, "webhook_event_details' event is the mapping's key").toBe(event);
          expect(details.eventId).toEqual(expect.any(String));
          expect(details.eventId.length).toBeGreaterThan(0);
          expect(adapter.webhookEventDetails({ headers: request.headers, rawBody: request.rawBody }).eventId).toBe(
            details.eventId,
          );
          if (job === "one_time_subscription_charged") {
            expect(details).toMatchObject({
              externalPaymentId: payment.proof.paymentToken,
              externalOrderId: payment.prepared.externalReferenceId,
              amountCents: payment.intent.amountCents,
              currency: payment.intent.currency,
            });
            // What settleOneTimeCharge acts on.
            expect(["captured", "authorized"]).toContain(details.status);
            expect(details.recurring ?? false).toBe(false);
          } else if (job === "payment_disputed") {
            // What settleGatewayDispute acts on: the payment and the dispute.
            expect(details.externalPaymentId).toBe(payment.proof.paymentToken);
            expect(typeof details.dispute?.id).toBe("string");
            expect(["open", "won", "lost"]).toContain(details.dispute?.status);
          } else if (job === "payment_refunded") {
            // What settleGatewayRefund acts on: the payment and the refund.
            expect(details.externalPaymentId).toBe(payment.proof.paymentToken);
            expect(typeof details.refund?.id).toBe("string");
            expect(details.refund?.amountCents).toBe(payment.intent.amountCents);
          } else {
            expect(details.externalSubscriptionId).toBe(payment.prepared.externalReferenceId);
            expect(details.status).toEqual(expect.any(String));
          }
        }
      });

      it("refuses bodies that are not events with a PaymentAdapterError", () => {
        const { gateway, adapter } = setup();
        if (!gateway.webhooks) return;
        for (const rawBody of ["", "not json", "[]", "{}", '{"event": 5}'])
          expect(() => adapter.webhookEventDetails({ headers: new Headers(), rawBody }), rawBody).toThrow(
            PaymentAdapterError,
          );
      });
    });

    describe("before_exit_on_subscription_absence (refunds)", () => {
      it("refunds a captured payment in full, once, however often it runs", async () => {
        const { gateway, adapter, creds } = setup();
        if (!gateway.webhooks) {
          expect(typeof adapter.beforeExitOnSubscriptionAbsence, "an adapter without webhooks gets no absence").toBe(
            "undefined",
          );
          return;
        }
        expect(typeof adapter.beforeExitOnSubscriptionAbsence, "a gateway with webhooks must return payments").toBe(
          "function",
        );
        const payment = await paid(gateway, adapter);
        const capture = Object.entries(adapter.webhookEventTypeMapping()).find(
          ([, job]) => job === "one_time_subscription_charged",
        )!;
        const details = adapter.webhookEventDetails(
          await gateway.webhooks.send(capture[0], payment, creds!.webhook_secret!),
        );
        const paymentId = payment.proof.paymentToken!;
        expect(gateway.refundedCents!(paymentId)).toBe(0);
        await adapter.beforeExitOnSubscriptionAbsence!(creds!, { ...details, status: "captured" });
        expect(gateway.refundedCents!(paymentId)).toBe(payment.intent.amountCents);
        await adapter.beforeExitOnSubscriptionAbsence!(creds!, { ...details, status: "captured" });
        expect(gateway.refundedCents!(paymentId)).toBe(payment.intent.amountCents);
      });

      it("cancels the gateway subscription of a recurring payment nobody holds", async () => {
        const { gateway, adapter, creds } = setup();
        if (!gateway.recurring || !gateway.webhooks || !adapter.beforeExitOnSubscriptionAbsence) return;
        const payment = await paid(gateway, adapter, "captured", gateway.recurring.intent);
        const charged = Object.entries(adapter.webhookEventTypeMapping()).find(
          ([, job]) => job === "recurring_subscription_charged",
        )!;
        const details = adapter.webhookEventDetails(
          await gateway.webhooks.send(charged[0], payment, creds!.webhook_secret!),
        );
        const subscriptionId = payment.prepared.externalReferenceId!;
        await adapter.beforeExitOnSubscriptionAbsence(creds!, details);
        expect(gateway.recurring.subscriptionStatus(subscriptionId)).toBe("cancelled");
        await adapter.beforeExitOnSubscriptionAbsence(creds!, details);
        expect(gateway.recurring.subscriptionStatus(subscriptionId)).toBe("cancelled");
      });
    });

    describe("renewal", () => {
      it("reports the gateway subscription's current end", async () => {
        const { gateway, adapter, creds } = setup();
        if (!gateway.recurring) {
          expect(typeof adapter.renewal, "an adapter without recurring payments has no renewal").toBe("undefined");
          return;
        }
        expect(typeof adapter.renewal, "a gateway with recurring payments reports renewals").toBe("function");
        const payment = await paid(gateway, adapter, "captured", gateway.recurring.intent);
        const subscriptionId = payment.prepared.externalReferenceId!;
        const end = new Date(Math.floor(Date.now() / 1000) * 1000 + 30 * 86_400_000);
        gateway.recurring.setCurrentEnd(subscriptionId, end);
        const details: GatewayEventDetails = {
          eventId: "renewal",
          event: "renewal",
          externalPaymentId: null,
          externalOrderId: null,
          externalSubscriptionId: subscriptionId,
          amountCents: null,
          currency: null,
          notes: {},
        };
        const renewed = await adapter.renewal!(creds!, details);
        expect(renewed.endTimestamp?.toISOString()).toBe(end.toISOString());
      });
    });
  });
}
