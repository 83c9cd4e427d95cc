/**
 * The links a newsletter mail carries, all on Masthead's own address (`baseUrl`: the job's or the
 * request's app URL) and all signed (./tokens.ts):
 *
 * - one-click unsubscribe, RFC 8058: `POST /api/newsletters/unsubscribe/<token>` leaves the
 *   newsletter (`List-Unsubscribe` points there, with `List-Unsubscribe-Post`); a GET there shows
 *   the page `/newsletters/unsubscribe/<token>`, which asks before it does anything;
 * - double opt-in: `/newsletters/confirm/<token>`;
 * - a redirected link: `/api/newsletters/click/<token>?u=<url>&h=<mac>`, where the MAC binds the
 *   URL to the delivery, so the route redirects only to the links Masthead put in that mail;
 * - the open pixel: `/api/newsletters/open/<token>`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

import { signNewsletterToken, type TNewsletterTokenPurpose } from "./tokens";

type Base = { baseUrl: string; key: Buffer; accountId: number };

function origin(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "");
}

function token(
  args: Base,
  purpose: TNewsletterTokenPurpose,
  id: number | bigint | string,
  nonce?: string | null,
): string {
  return signNewsletterToken(args.key, { accountId: args.accountId, purpose, id, nonce });
}

/**
 * The one-click unsubscribe URL: by a delivery (a sent mail; the unsubscribe counts for its send)
 * or by a subscription (a mail outside a send: the confirmation, a test send).
 */
export function unsubscribeUrl(
  args: Base & ({ deliveryId: bigint | number | string } | { subscriptionId: number }),
): string {
  if ("deliveryId" in args) return deliveryLinks(args).unsubscribe;
  return `${origin(args.baseUrl)}/api/newsletters/unsubscribe/${token(args, "unsubscribe", args.subscriptionId)}`;
}

/** The page that asks before unsubscribing (where a GET of the one-click URL lands). */
export function unsubscribePageUrl(baseUrl: string, tokenText: string): string {
  return `${origin(baseUrl)}/newsletters/unsubscribe/${tokenText}`;
}

/** The double opt-in link of a PENDING subscription, for the sign-up request `nonce` names. */
export function confirmUrl(args: Base & { subscriptionId: number; nonce: string | null }): string {
  return `${origin(args.baseUrl)}/newsletters/confirm/${token(args, "confirm", args.subscriptionId, args.nonce)}`;
}

function urlMac(key: Buffer, accountId: number, deliveryId: string, url: string): string {
  return createHmac("sha256", key)
    .update(`click\n${accountId}\n${deliveryId}\n${url}`)
    .digest("base64url")
    .slice(0, 22);
}

/**
 * The links of one delivered mail, its token signed once for all of them (a send signs every
 * reader's copy): `click(url)` redirects a link through Masthead so its click is counted.
 */
export function deliveryLinks(args: Base & { deliveryId: bigint | number | string }): {
  click: (url: string) => string;
  unsubscribe: string;
  openPixel: string;
} {
  const id = String(args.deliveryId);
  const t = token(args, "delivery", id);
  const base = origin(args.baseUrl);
  return {
    click: (url) =>
      `${base}/api/newsletters/click/${t}?u=${encodeURIComponent(url)}&h=${urlMac(args.key, args.accountId, id, url)}`,
    unsubscribe: `${base}/api/newsletters/unsubscribe/${t}`,
    openPixel: `${base}/api/newsletters/open/${t}`,
  };
}

/** A link of a delivered mail, redirected through Masthead so its click is counted. */
export function clickUrl(args: Base & { deliveryId: bigint | number | string; url: string }): string {
  return deliveryLinks(args).click(args.url);
}

/** Whether `h` is the MAC `clickUrl` gave `url` in that delivery's mail (constant time). */
export function isClickMacValid(args: {
  key: Buffer;
  accountId: number;
  deliveryId: string;
  url: string;
  h: string;
}): boolean {
  const expected = Buffer.from(urlMac(args.key, args.accountId, args.deliveryId, args.url));
  const given = Buffer.from(args.h);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The open pixel of a delivered mail (only when its newsletter tracks opens). */
export function openPixelUrl(args: Base & { deliveryId: bigint | number | string }): string {
  return deliveryLinks(args).openPixel;
}
