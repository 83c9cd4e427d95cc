/**
 * The official Stripe SDK as the Stripe adapter uses it: one client per call with the account's
 * secret key, the API version pinned to the SDK's own (`Stripe.API_VERSION`, 2026-10-28.endive
 * for stripe 23.1.0: the SDK's types describe exactly that version), and Stripe's errors turned
 * into PaymentAdapterErrors in plain words. The secret key never appears in a message: an
 * authentication error says which key is wrong by kind only.
 */
import "server-only";

import Stripe from "stripe";

import { getEnv } from "../../../env.js";
import { PaymentAdapterError, type GatewayCredentials } from "./adapter";

/** The Stripe API version every call sends (`Stripe-Version`), documented in docs/subscriptions.md. */
const STRIPE_API_VERSION = Stripe.API_VERSION;
const TIMEOUT_MS = 10_000;

/** Where the SDK connects: Stripe itself, or (tests) a fake of its API. */
export type StripeConnection = { host: string; port: number; protocol: "http" | "https" };

function connectionFromEnv(): StripeConnection {
  const url = new URL(getEnv().STRIPE_API_BASE_URL);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

/**
 * A client for the account's secret key. `maxNetworkRetries`: the SDK retries connection errors,
 * 409s and 5xx answers itself, with the same idempotency key (2 by default; tests pass 0).
 */
export function stripeClient(
  creds: GatewayCredentials,
  options: { connection?: StripeConnection; maxNetworkRetries?: number } = {},
): Stripe {
  const connection = options.connection ?? connectionFromEnv();
  return new Stripe(creds.secret, {
    apiVersion: STRIPE_API_VERSION,
    host: connection.host,
    port: connection.port,
    protocol: connection.protocol,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: "Masthead" },
  });
}

/** Stripe's code of a refusal (e.g. "resource_missing", "charge_already_refunded"), if any. */
export function stripeErrorCode(error: unknown): string | null {
  return error instanceof Stripe.errors.StripeError ? (error.code ?? null) : null;
}

/**
 * A Stripe error as the contract's PaymentAdapterError: a card refused → "declined" with
 * Stripe's words for the reader; Stripe unreachable, failing (5xx) or rate-limiting →
 * "unavailable"; a request Stripe refuses (our mistake, or keys without a permission) →
 * "invalid". Anything that is not a Stripe error is thrown on unchanged.
 */
export function stripeAdapterError(error: unknown): never {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  if (error instanceof Stripe.errors.StripeCardError)
    throw new PaymentAdapterError(error.message || "The card was declined.", "declined");
  if (error instanceof Stripe.errors.StripeConnectionError)
    throw new PaymentAdapterError("Stripe could not be reached.", "unavailable");
  if (error instanceof Stripe.errors.StripeRateLimitError || error.statusCode === 429)
    throw new PaymentAdapterError("Stripe is limiting requests; try again shortly.", "unavailable");
  if (error instanceof Stripe.errors.StripeAuthenticationError)
    throw new PaymentAdapterError("Stripe refused the account's secret key.", "unavailable");
  if (error instanceof Stripe.errors.StripeAPIError || (error.statusCode ?? 0) >= 500)
    throw new PaymentAdapterError("Stripe is unavailable.", "unavailable");
  if (error instanceof Stripe.errors.StripePermissionError)
    throw new PaymentAdapterError("The account's Stripe key may not do this (a restricted key?).", "invalid");
  throw new PaymentAdapterError(`Stripe refused the request: ${error.message}`, "invalid");
}

/** Run one SDK call, its errors as PaymentAdapterErrors. */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    return stripeAdapterError(error);
  }
}

/** The id of an expandable Stripe field: the id itself, or the expanded object's. */
export const stripeIdOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === "string" ? v : (v?.id ?? null);
