/**
 * Razorpay's REST API as the adapter's parts call it (./razorpay.ts): one authenticated call
 * through the guarded fetch, Razorpay's error description, and the account's credentials checked.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import { guardedFetch } from "../../webhooks/guarded-fetch";
import { PaymentAdapterError, type GatewayCredentials } from "./adapter";
import { str, type Entity } from "./razorpay-events";

const TIMEOUT_MS = 10_000;

type FetchLike = (url: string, init?: { method?: string; headers?: HeadersInit; body?: string }) => Promise<Response>;

export type RazorpayAdapterOptions = {
  /** Default: RAZORPAY_API_BASE_URL. */
  baseUrl?: () => string;
  /** Default: the guarded fetch, private addresses allowed only by PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS. */
  fetch?: FetchLike;
};

/** One API call with basic auth (key id : key secret). */
export type RazorpayCall = (
  creds: GatewayCredentials,
  method: "GET" | "POST" | "PATCH",
  path: string,
  body?: unknown,
) => Promise<{ status: number; data: Entity }>;

/** What every part of the adapter calls Razorpay with. */
export type RazorpayApi = {
  call: RazorpayCall;
  needCredentials: (creds: GatewayCredentials | null) => GatewayCredentials;
  errorDescription: (data: Entity) => string;
};

/** Razorpay's own description of a refused request. */
export function razorpayErrorDescription(data: Entity): string {
  const error = data.error as Entity | undefined;
  return str(error?.description) ?? "Razorpay refused the request.";
}

function needCredentials(creds: GatewayCredentials | null): GatewayCredentials {
  if (!creds || !creds.enabled) throw new PaymentAdapterError("Razorpay is not set up for this account.", "invalid");
  return creds;
}

export function razorpayApi(options: RazorpayAdapterOptions): RazorpayApi {
  const baseUrl = options.baseUrl ?? (() => getEnv().RAZORPAY_API_BASE_URL);
  const fetcher: () => FetchLike = () =>
    options.fetch ?? guardedFetch({ allowPrivate: getEnv().PAYMENT_GATEWAY_ALLOW_PRIVATE_URLS, timeoutMs: TIMEOUT_MS });

  /** One API call with basic auth (key id : key secret); Razorpay's error description on failure. */
  const call: RazorpayCall = async (creds, method, path, body) => {
    const auth = Buffer.from(`${creds.app_key}:${creds.secret}`).toString("base64");
    let response: Response;
    try {
      response = await fetcher()(`${baseUrl()}${path}`, {
        method,
        headers: {
          authorization: `Basic ${auth}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new PaymentAdapterError("Razorpay could not be reached.", "unavailable");
    }
    let data: Entity = {};
    try {
      data = (await response.json()) as Entity;
    } catch {
      if (response.ok) throw new PaymentAdapterError("Razorpay answered something unreadable.", "unavailable");
    }
    if (response.status === 401)
      throw new PaymentAdapterError("Razorpay refused the account's API keys.", "unavailable");
    if (response.status >= 500) throw new PaymentAdapterError("Razorpay is unavailable.", "unavailable");
    return { status: response.status, data };
  };

  return { call, needCredentials, errorDescription: razorpayErrorDescription };
}
