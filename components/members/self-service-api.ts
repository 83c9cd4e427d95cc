/**
 * The self-service page's calls to the member API of the publisher's host, and the shapes it
 * reads (server/subscriptions/self-service/self-service.ts answers them). Same origin, the session cookie.
 */

/** The page's stable path (the dunning e-mail links here: `#subscription-<id>`). */
export const SELF_SERVICE_PATH = "/member/subscriptions";

export type SwitchOption = { id: number; title: string; switch_type: string; price: string; period: string };

export type SubscriptionCard = {
  id: number;
  plan_name: string;
  status: string;
  active: boolean;
  recurring: boolean;
  cancelled: boolean;
  in_trial_period: boolean;
  in_grace_period: boolean;
  summary: string;
  amount: string;
  period: string;
  payment_type: string;
  switch_options: SwitchOption[];
  scheduled_switch: { plan_name: string | null; scheduled_at: string } | null;
  cancellation: {
    reason: string;
    outcome: "cancelled" | "offer_accepted" | "paused";
    offer: { kind: "coupon" | "pause"; until: string } | null;
  } | null;
  can_cancel: boolean;
  can_undo_cancel: boolean;
  offer: { kind: "coupon" | "pause"; periods: number; words: string } | null;
  can_update_payment_method: boolean;
  /** The page's own form, or a link to the gateway's hosted page (e.g. Razorpay's). */
  payment_method_update: { kind: "form" } | { kind: "hosted"; provider_name: string; href: string } | null;
  /** A credit balance from a plan change, in words (null: none). */
  credit: string | null;
  /** A pause not over yet: when the subscription resumes. */
  paused_until: string | null;
};

export type Invoice = { id: number; number: number; amount: string; created_at: string; pdf_href: string };

export type CreditNote = {
  id: number;
  number: number;
  invoice_number: number;
  amount: string;
  created_at: string;
  pdf_href: string;
};

export type Overview = { subscriptions: SubscriptionCard[]; invoices: Invoice[]; credit_notes: CreditNote[] };

/**
 * A refusal as the page reads it: the HTTP status (0: no answer), the API's `error.code`, and the
 * field its first detail names (body.x → x). The page says it in the reader's words by the code
 * (./problem-words.ts), not with the API's English sentence.
 */
export type Problem = { status: number; code: string | null; field?: string; fields: string[] };

type Sent = { ok: true; status: number; body: unknown } | { ok: false; status: number; problem: Problem };

type ErrorBody = { error?: { code?: unknown; details?: { field?: unknown }[] } } | null;

/** The Problem of a refused answer's JSON body. */
export function problemOf(status: number, json: unknown): Problem {
  const error = (json as ErrorBody)?.error;
  const fields = (Array.isArray(error?.details) ? error.details : [])
    .map((d) => (typeof d?.field === "string" ? d.field.replace(/^body\./, "") : ""))
    .filter(Boolean);
  return { status, code: typeof error?.code === "string" ? error.code : null, field: fields[0], fields };
}

/** One JSON call; a refusal comes back as its Problem. */
export async function sendJson(method: string, path: string, body?: unknown): Promise<Sent> {
  try {
    const res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await res.json().catch(() => null);
    if (res.ok) return { ok: true, status: res.status, body: json };
    return { ok: false, status: res.status, problem: problemOf(res.status, json) };
  } catch {
    return { ok: false, status: 0, problem: { status: 0, code: null, fields: [] } };
  }
}

/** A reader named by the publisher: its account's client key and its publisher-signed JWT. */
type JwtReader = { key: string; jwt: string };

/** `#key=…&jwt=…` of the page's address, or null. */
export function readerFromHash(hash: string): JwtReader | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const key = params.get("key");
  const jwt = params.get("jwt") ?? params.get("svc_jwt");
  return key && jwt ? { key, jwt } : null;
}

/**
 * `{action: "masthead_self_service_login", key, jwt}` posted by a page of the publication's own
 * hosts that frames this one, or null (another sender, another message).
 */
export function readerFromMessage(
  event: Pick<MessageEvent, "origin" | "data">,
  hosts: readonly string[],
): JwtReader | null {
  let host: string;
  try {
    host = new URL(event.origin).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (!hosts.map((h) => h.toLowerCase()).includes(host)) return null;
  const data = event.data as { action?: unknown; key?: unknown; jwt?: unknown } | null;
  if (data?.action !== "masthead_self_service_login") return null;
  return typeof data.key === "string" && typeof data.jwt === "string" ? { key: data.key, jwt: data.jwt } : null;
}

/** Exchange the reader's JWT for a session of the page (POST /api/member/subscriptions/session). */
export async function startSession(reader: JwtReader): Promise<boolean> {
  const query = new URLSearchParams({ key: reader.key, svc_jwt: reader.jwt });
  const res = await sendJson("POST", `/api/member/subscriptions/session?${query.toString()}`);
  return res.ok;
}
