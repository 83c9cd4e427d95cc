/**
 * The AccessType SDK's HTTP: one request to the Masthead API built from the account's config, and
 * its answer as data or the SDK's rejection (`{status, error: {code, message}}`).
 */
/* eslint-disable @typescript-eslint/only-throw-error --
   the SDK's documented contract: promises reject with the plain `{status, error}` object. */
import type { AccessTypeError } from "./types";

export type FetchLike = (
  url: string,
  init?: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    keepalive?: boolean;
    credentials?: string;
  },
) => Promise<{ status: number; ok: boolean; text(): Promise<string> }>;

type ApiRequest = { method: string; url: string; headers: Record<string, string>; body?: string };

/** Reject with the SDK's error shape. */
export function sdkError(status: number, code: string, message: string): AccessTypeError {
  return { status, error: { code, message } };
}

/**
 * Build one API request: `path` under baseUrl, `key` first, then the other query parameters
 * (null/undefined/"" left out), JSON bodies as application/json unless `textBody` (text/plain:
 * no CORS preflight, what a pingback beacon sends).
 */
export function buildRequest(
  config: { baseUrl: string; key: string },
  method: string,
  path: string,
  query: Record<string, string | number | boolean | null | undefined> = {},
  body?: unknown,
  textBody = false,
): ApiRequest {
  const url = new URL(path, config.baseUrl.replace(/\/?$/, "/"));
  url.searchParams.set("key", config.key);
  for (const [name, value] of Object.entries(query))
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body === undefined) return { method, url: url.toString(), headers };
  headers["Content-Type"] = textBody ? "text/plain;charset=UTF-8" : "application/json";
  return { method, url: url.toString(), headers, body: JSON.stringify(body) };
}

/** The API's answer as data, or the SDK's rejection for a non-2xx answer or no answer at all. */
export async function send(fetchImpl: FetchLike, request: ApiRequest, keepalive = false): Promise<unknown> {
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await fetchImpl(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      credentials: "omit",
      ...(keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    throw sdkError(0, "NETWORK_ERROR", error instanceof Error ? error.message : "The request failed.");
  }
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (response.ok) return data;
  const error = (data as { error?: AccessTypeError["error"] } | null)?.error;
  throw {
    status: response.status,
    error:
      error && typeof error === "object" && typeof error.message === "string"
        ? error
        : { code: `HTTP_${response.status}`, message: text.slice(0, 200) || `HTTP ${response.status}` },
  } satisfies AccessTypeError;
}
