/**
 * What Masthead tells Razorpay when a `razorpay_recurring` subscription is cancelled, paused or
 * resumed in Masthead (docs/subscriptions.md, "Payment adapters"), through its documented REST API:
 *
 * - cancel at period end: `POST /v1/subscriptions/<id>/cancel {cancel_at_cycle_end: 1}`; in a
 *   trial (Razorpay `authenticated`: nothing charged yet, the first charge at `start_at`) it is
 *   cancelled now (`cancel_at_cycle_end: 0`): Masthead keeps the trial's access until its end;
 * - cancel now: `POST /v1/subscriptions/<id>/cancel {cancel_at_cycle_end: 0}`;
 * - pause: `POST /v1/subscriptions/<id>/pause {pause_at: "now"}` (Razorpay pauses now or never,
 *   only `active` subscriptions; an `authenticated` one paused would be cancelled, so a trial is
 *   refused). The paid period is Masthead's to serve, and nothing is charged before it ends;
 * - resume: `POST /v1/subscriptions/<id>/resume {resume_at: "now"}`.
 * - undo of a cancel: none. "Once cancelled, you cannot renew or reactivate it"
 *   (https://razorpay.com/docs/api/payments/subscriptions/cancel-subscription/): Masthead refuses.
 *
 * Razorpay takes no idempotency key here: each call reads the subscription first
 * (`GET /v1/subscriptions/<id>`), and a state already as wanted is done; a refusal is read back
 * the same way (a concurrent change that got there first is done, not an error).
 */
import "server-only";

import {
  PaymentAdapterError,
  type GatewayCredentials,
  type GatewaySubscriptionChange,
  type GatewaySubscriptionControls,
} from "./adapter";
import { razorpayErrorDescription, type RazorpayCall } from "./razorpay-api";
import { str } from "./razorpay-events";

const ENDED = new Set(["cancelled", "completed", "expired"]);
/** Before the first charge: created (not authorized yet) or authenticated (a trial's mandate). */
const NOT_STARTED = new Set(["created", "authenticated"]);

export function razorpaySubscriptionControls(
  call: RazorpayCall,
  needCredentials: (creds: GatewayCredentials | null) => GatewayCredentials,
): GatewaySubscriptionControls {
  const path = (change: GatewaySubscriptionChange, action = "") => {
    if (!/^sub_[A-Za-z0-9]+$/.test(change.gatewayReference))
      throw new PaymentAdapterError("This subscription has no Razorpay subscription.", "declined");
    return `/v1/subscriptions/${encodeURIComponent(change.gatewayReference)}${action}`;
  };
  const description = razorpayErrorDescription;

  async function stateOf(creds: GatewayCredentials, change: GatewaySubscriptionChange): Promise<string> {
    const { status, data } = await call(creds, "GET", path(change));
    if (status >= 400) throw new PaymentAdapterError(description(data), "declined");
    if (data.id !== change.gatewayReference)
      throw new PaymentAdapterError("Razorpay answered another subscription.", "unavailable");
    return str(data.status) ?? "unknown";
  }

  /** POST an action; a refusal is done when the subscription is now as wanted (`done`), else declined. */
  async function act(
    creds: GatewayCredentials,
    change: GatewaySubscriptionChange,
    action: string,
    body: unknown,
    done: (state: string, refusal: string) => boolean,
  ) {
    const { status, data } = await call(creds, "POST", path(change, action), body);
    if (status < 400) return;
    if (done(await stateOf(creds, change), description(data))) return;
    throw new PaymentAdapterError(description(data), "declined");
  }

  return {
    async cancelAtPeriodEnd(credentials, change) {
      const creds = needCredentials(credentials);
      const state = await stateOf(creds, change);
      if (ENDED.has(state)) return;
      await act(creds, change, "/cancel", { cancel_at_cycle_end: NOT_STARTED.has(state) ? 0 : 1 }, (s) => ENDED.has(s));
    },

    async cancelNow(credentials, change) {
      const creds = needCredentials(credentials);
      if (ENDED.has(await stateOf(creds, change))) return;
      await act(creds, change, "/cancel", { cancel_at_cycle_end: 0 }, (s) => ENDED.has(s));
    },

    async pauseCollection(credentials, change) {
      const creds = needCredentials(credentials);
      const state = await stateOf(creds, change);
      if (state === "paused") return;
      if (NOT_STARTED.has(state))
        throw new PaymentAdapterError(
          "Razorpay cancels a subscription paused before its first charge: it cannot be paused in its trial.",
          "declined",
        );
      if (state !== "active")
        throw new PaymentAdapterError(`Razorpay pauses only active subscriptions; this one is ${state}.`, "declined");
      await act(creds, change, "/pause", { pause_at: "now" }, (s) => s === "paused");
    },

    async resumeCollection(credentials, change) {
      const creds = needCredentials(credentials);
      const state = await stateOf(creds, change);
      if (state === "active") return;
      if (state !== "paused")
        throw new PaymentAdapterError(`Razorpay resumes only paused subscriptions; this one is ${state}.`, "declined");
      await act(creds, change, "/resume", { resume_at: "now" }, (s) => s === "active");
    },
  };
}
