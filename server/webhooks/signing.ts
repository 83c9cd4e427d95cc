/**
 * Webhook signatures. Every delivery carries two, over the exact bytes sent:
 *
 * - `X-Qt-Signature`: hex HMAC-SHA256 of the body with the endpoint's secret, as the spec defines
 *   it (64 characters; empty when the endpoint has no secret).
 * - Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one `v1,` entry per live
 *   secret (two during a rotation). Signing the id and time lets a receiver reject replays.
 *
 * Receivers verify either; docs/webhooks.md shows both.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export function qtSignature(body: string | Buffer, secret: string | null | undefined): string {
  if (!secret) return "";
  return createHmac("sha256", secret).update(body).digest("hex");
}

export function standardSignature(id: string, timestampSeconds: number, body: string, secrets: string[]): string {
  return secrets
    .map((secret) => `v1,${createHmac("sha256", secret).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`)
    .join(" ");
}

/** Receiver-side check of X-Qt-Signature, in constant time. */
export function verifyQtSignature(body: string | Buffer, secret: string, header: string): boolean {
  const expected = Buffer.from(qtSignature(body, secret), "hex");
  const given = /^[0-9a-f]{64}$/i.test(header) ? Buffer.from(header, "hex") : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Receiver-side check of the Standard Webhooks headers: any v1 signature matches and the time is recent. */
export function verifyStandardSignature(
  args: { id: string; timestamp: string; signature: string; body: string; secret: string },
  now = new Date(),
  toleranceSeconds = 300,
): boolean {
  const ts = Number(args.timestamp);
  if (!Number.isInteger(ts) || Math.abs(now.getTime() / 1000 - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(
    createHmac("sha256", args.secret).update(`${args.id}.${ts}.${args.body}`).digest("base64"),
  );
  return args.signature.split(" ").some((entry) => {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
