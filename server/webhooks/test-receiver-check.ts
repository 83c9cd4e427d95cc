/**
 * The built-in test receiver's side of a delivery (test-receiver.ts), pure: its token (the
 * account's id and an HMAC of it, so one account cannot guess another's receiver), and the
 * signature check a careful receiver makes (signing.ts), with what it found in words.
 */
import { createHmac } from "node:crypto";

import { base64urlMacMatches } from "../security/signed-token";
import { verifyQtSignature, verifyStandardSignature } from "./signing";

const TOKEN = /^([1-9]\d{0,9})-([A-Za-z0-9_-]{43})$/;

function mac(accountId: number, key: Buffer): Buffer {
  return createHmac("sha256", key).update(`webhook.test_receiver:v1:${accountId}`).digest();
}

/** `<accountId>-<HMAC-SHA256 of the account id, base64url>`. */
export function testReceiverToken(accountId: number, key: Buffer): string {
  return `${accountId}-${mac(accountId, key).toString("base64url")}`;
}

/** The account a token belongs to, or null for anything Masthead did not make (compared in constant time). */
export function accountOfTestReceiverToken(token: string, key: Buffer): number | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const accountId = Number(m[1]);
  if (!Number.isSafeInteger(accountId) || accountId > 2_147_483_647) return null;
  return base64urlMacMatches(m[2]!, mac(accountId, key)) ? accountId : null;
}

/** What the receiver checks a request with: the secrets of one webhook pointed at it. */
type ReceiverEndpoint = {
  id: string;
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

type SignedRequest = { body: string; headers: Headers };
export type SignatureCheck = { valid: boolean; note: string; endpointId: string | null };

function checkWith(endpoint: ReceiverEndpoint, request: SignedRequest, now: Date): SignatureCheck {
  const header = (name: string) => request.headers.get(name) ?? "";
  const qt = header("x-qt-signature");
  const standard = header("webhook-signature");
  const result = (valid: boolean, note: string) => ({ valid, note, endpointId: endpoint.id });
  if (!endpoint.secret) {
    return !qt && !standard
      ? result(true, "Unsigned: the webhook has no secret, and X-Qt-Signature is empty as it should be.")
      : result(false, "The webhook has no secret, yet the request carries a signature.");
  }
  if (!qt && !standard) return result(false, "No signature: X-Qt-Signature and webhook-signature are both missing.");
  const failures: string[] = [];
  if (qt && !verifyQtSignature(request.body, endpoint.secret, qt)) {
    failures.push("X-Qt-Signature does not match the body");
  }
  if (standard) {
    const live = [
      endpoint.secret,
      endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? endpoint.previousSecret : null,
    ].filter((s): s is string => Boolean(s));
    const args = { id: header("webhook-id"), timestamp: header("webhook-timestamp"), signature: standard };
    if (!live.some((secret) => verifyStandardSignature({ ...args, body: request.body, secret }, now))) {
      failures.push(
        "webhook-signature does not match webhook-id.webhook-timestamp.body (or the time is over 5 minutes off)",
      );
    }
  }
  if (failures.length) return result(false, `${failures.join("; ")}.`);
  const checked = [qt ? "X-Qt-Signature" : null, standard ? "webhook-signature" : null].filter(Boolean).join(" and ");
  return result(true, `${checked} verified with the webhook's secret.`);
}

/**
 * A request is valid when every signature it carries verifies with the secret of one of the
 * webhooks pointed at the receiver (a webhook without a secret sends none). When none verifies,
 * the note says what the first signed webhook found.
 */
export function checkReceivedSignature(
  endpoints: readonly ReceiverEndpoint[],
  request: SignedRequest,
  now: Date,
): SignatureCheck {
  if (!endpoints.length) {
    return {
      valid: false,
      note: "No webhook of this account points at the test receiver, so there is no secret to check the signature with.",
      endpointId: null,
    };
  }
  const checks = endpoints.map((endpoint) => checkWith(endpoint, request, now));
  const hasSecret = new Set(endpoints.filter((e) => e.secret).map((e) => e.id));
  return checks.find((c) => c.valid) ?? checks.find((c) => c.endpointId && hasSecret.has(c.endpointId)) ?? checks[0]!;
}
