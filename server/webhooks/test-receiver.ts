/**
 * The built-in test receiver: a URL of this app, one per account
 * (APP_URL/api/webhooks/test-receiver/<accountId>-<HMAC>), that a webhook can point at on a fresh
 * install, where every other local address is refused (url-guard.ts). It takes a delivery as a
 * careful receiver would: it checks the signatures with the secret of the account's webhooks that
 * point at it (test-receiver-check.ts), keeps the request (the headers a receiver reads, the body
 * cut after 32 KiB, whether the signature verified, when) and answers 200, or 401 when the
 * signature does not verify. The last RECEIPTS_KEPT requests of each account are kept; owners read
 * them on the dashboard's webhooks page.
 *
 * Only this exact URL is let through the address check (`allowsPrivateWebhookUrl`): another path,
 * port or host on the same machine is still refused unless WEBHOOK_ALLOW_PRIVATE_URLS is set.
 */
import { hkdfSync } from "node:crypto";

import { getEnv, type Env } from "../../env.js";
import type { Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { TEST_RECEIVER_PATH } from "./test-delivery.schema";
import {
  accountOfTestReceiverToken,
  checkReceivedSignature,
  testReceiverToken,
  type SignatureCheck,
} from "./test-receiver-check";

/** Requests kept per account: the newest. */
const RECEIPTS_KEPT = 50;
/** Bytes of a body kept (the rest is counted, not stored). */
const STORED_BODY_BYTES = 32 * 1024;
/** Bytes of one header value kept. */
const STORED_HEADER_CHARS = 1000;
/** The headers a receiver reads, kept in this order. */
const KEPT_HEADERS = [
  "content-type",
  "user-agent",
  "x-masthead-event",
  "x-masthead-event-id",
  "x-masthead-delivery-id",
  "x-qt-signature",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
];

const DEVELOPMENT_SECRET = "masthead-development-webhook-test-receiver-secret";

function receiverKey(env: Pick<Env, "AUTH_SECRET" | "NODE_ENV"> = getEnv()): Buffer {
  const base = env.AUTH_SECRET;
  if (!base && env.NODE_ENV === "production") throw new Error("AUTH_SECRET is required");
  return Buffer.from(hkdfSync("sha256", base ?? DEVELOPMENT_SECRET, "masthead-webhook-test-receiver", "v1", 32));
}

/**
 * The account's test receiver URL: APP_URL + the path + its token, normalised as webhook URLs are
 * stored (`new URL(url).href`: lower-case scheme and host), so the one saved compares equal.
 */
export function testReceiverUrl(accountId: number, env: Env = getEnv()): string {
  const token = testReceiverToken(accountId, receiverKey(env));
  return new URL(`${env.APP_URL.replace(/\/+$/, "")}${TEST_RECEIVER_PATH}/${token}`).href;
}

/**
 * Whether a webhook URL may reach a private or loopback address: when the operator allows it
 * (WEBHOOK_ALLOW_PRIVATE_URLS), or when it is exactly this account's test receiver URL.
 */
export function allowsPrivateWebhookUrl(url: string, accountId: number, allowPrivate: boolean): boolean {
  return allowPrivate || url === testReceiverUrl(accountId);
}

/**
 * Take one request at the receiver: 404 for a token Masthead did not make (or an account that is
 * gone); otherwise the request is kept, with whether its signature verified.
 */
export async function receiveTestWebhook(
  db: Db,
  args: { token: string; headers: Headers; body: Buffer; now: Date },
): Promise<SignatureCheck & { id: bigint }> {
  const accountId = accountOfTestReceiverToken(args.token, receiverKey());
  const account = accountId ? await db.account.findUnique({ where: { id: accountId }, select: { id: true } }) : null;
  if (!accountId || !account) throw new AppError("NOT_FOUND", "There is no test receiver at this address.");

  const endpoints = await db.webhookEndpoint.findMany({
    where: { accountId, url: testReceiverUrl(accountId) },
    select: { id: true, secret: true, previousSecret: true, previousSecretExpiresAt: true },
    orderBy: { createdAt: "asc" },
  });
  const body = args.body.toString("utf8");
  const check = checkReceivedSignature(endpoints, { body, headers: args.headers }, args.now);
  const headers = KEPT_HEADERS.flatMap((name) => {
    const value = args.headers.get(name);
    return value === null ? [] : [{ name, value: value.slice(0, STORED_HEADER_CHARS) }];
  });
  const truncated = args.body.length > STORED_BODY_BYTES;

  const receipt = await withTransaction(db, async (tx) => {
    const created = await tx.webhookTestReceipt.create({
      data: {
        accountId,
        receivedAt: args.now,
        headers,
        body: truncated ? args.body.subarray(0, STORED_BODY_BYTES).toString("utf8") : body,
        bodyBytes: args.body.length,
        bodyTruncated: truncated,
        signatureValid: check.valid,
        signatureNote: check.note,
        statusCode: check.valid ? 200 : 401,
      },
      select: { id: true },
    });
    const older = await tx.webhookTestReceipt.findMany({
      where: { accountId },
      orderBy: { id: "desc" },
      skip: RECEIPTS_KEPT,
      select: { id: true },
    });
    if (older.length) await tx.webhookTestReceipt.deleteMany({ where: { id: { in: older.map((r) => r.id) } } });
    return created;
  });
  return { ...check, id: receipt.id };
}

/** The dashboard's view: the account's receiver URL and what it got, newest first. */
export async function testReceiverView(db: Db, { actor }: { actor: Actor }) {
  const receipts = await db.webhookTestReceipt.findMany({
    where: { accountId: actor.accountId },
    orderBy: { id: "desc" },
    take: RECEIPTS_KEPT,
    omit: { accountId: true },
  });
  return {
    url: testReceiverUrl(actor.accountId),
    kept: RECEIPTS_KEPT,
    receipts: receipts.map((r) => ({
      ...r,
      id: r.id.toString(),
      headers: r.headers as { name: string; value: string }[],
    })),
  };
}
