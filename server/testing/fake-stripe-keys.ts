/**
 * The API keys the fake Stripe server (fake-stripe.ts) accepts, and what each may do, as Stripe
 * authorizes them: a key it does not know (mistyped, rolled, deleted) is 401 "Invalid API Key
 * provided"; a restricted key (`rk_…`) without the permission an endpoint needs is 403 naming the
 * permission (`rak_<resource>_<read|write>`; write includes read), in Stripe's words:
 * "The provided key 'rk_test_…' does not have the required permissions for this endpoint on
 * account 'acct_…'. Having the 'rak_customer_write' permission would allow this request to continue."
 */
import { randomBytes } from "node:crypto";

type KeyGrant = {
  livemode: boolean;
  /** null: a secret key (everything); else the resources a restricted key may read or write. */
  permissions: ReadonlyMap<string, "read" | "write"> | null;
};

/** The resource of a request path, as Stripe names its restricted-key permissions. */
const RESOURCES: readonly [RegExp, string][] = [
  [/^\/v1\/payment_intents(\/|$)/, "payment_intent"],
  [/^\/v1\/customers(\/|$)/, "customer"],
  [/^\/v1\/products(\/|$)/, "product"],
  [/^\/v1\/prices(\/|$)/, "price"],
  [/^\/v1\/subscriptions(\/|$)/, "subscription"],
  [/^\/v1\/invoices(\/|$)/, "invoice"],
  [/^\/v1\/refunds(\/|$)/, "refund"],
  [/^\/v1\/setup_intents(\/|$)/, "setup_intent"],
  [/^\/v1\/billing_portal\//, "billing_portal_session"],
  [/^\/v1\/balance$/, "balance"],
  [/^\/v1\/tax\/calculations(\/|$)/, "tax_calculation"],
  [/^\/v1\/tax\/settings$/, "tax_settings"],
];

/** A permission a restricted key is given: "customer_write", "price_read". */
export type FakeStripePermission = `${string}_${"read" | "write"}`;

/** Every permission the Stripe adapter needs, as a restricted key is given them. */
export const ADAPTER_PERMISSIONS: readonly FakeStripePermission[] = [
  "payment_intent_write",
  "customer_write",
  "product_write",
  "price_read",
  "subscription_write",
  "invoice_write",
  "refund_write",
  "setup_intent_read",
  "billing_portal_session_write",
];

const mask = (key: string) => `${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;

export function fakeStripeKeys(accountId: string) {
  const keys = new Map<string, KeyGrant>();

  return {
    /** A key the fake accepts: a secret key (every permission) or a restricted one (only `permissions`). */
    add(options: { mode?: "test" | "live"; permissions?: readonly FakeStripePermission[]; key?: string } = {}): string {
      const mode = options.mode ?? "test";
      const restricted = options.permissions !== undefined;
      const key = options.key ?? `${restricted ? "rk" : "sk"}_${mode}_${randomBytes(24).toString("hex")}`;
      const permissions = restricted ? new Map<string, "read" | "write">() : null;
      for (const p of options.permissions ?? []) {
        const [, resource, access] = /^(.+)_(read|write)$/.exec(p)!;
        if (permissions!.get(resource!) !== "write") permissions!.set(resource!, access as "read" | "write");
      }
      keys.set(key, { livemode: mode === "live", permissions });
      return key;
    },
    /** Roll a key: Stripe refuses it from now on (401). */
    revoke(key: string) {
      keys.delete(key);
    },
    /** Whether `authorization` may make this request: null, or Stripe's refusal (status and body). */
    refusal(authorization: string, method: string, path: string): { status: number; body: object } | null {
      const key = authorization.startsWith("Bearer ") ? authorization.slice(7) : "";
      const grant = keys.get(key);
      if (!grant)
        return {
          status: 401,
          body: {
            error: {
              type: "invalid_request_error",
              message: key ? `Invalid API Key provided: ${mask(key)}` : "You did not provide an API key.",
            },
          },
        };
      if (!grant.permissions) return null;
      const resource = RESOURCES.find(([pattern]) => pattern.test(path))?.[1] ?? "unknown";
      const access = method === "GET" ? "read" : "write";
      const has = grant.permissions.get(resource);
      if (has === "write" || has === access) return null;
      return {
        status: 403,
        body: {
          error: {
            type: "invalid_request_error",
            message: `The provided key '${mask(key)}' does not have the required permissions for this endpoint on account '${accountId}'. Having the 'rak_${resource}_${access}' permission would allow this request to continue.`,
          },
        },
      };
    },
  };
}
