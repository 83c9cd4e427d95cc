/**
 * "Send a test event" (dashboard, owners only): builds the exact request a delivery of the chosen
 * event would make to this endpoint (request.ts: body, headers, both signatures with the
 * endpoint's live secrets) and returns it to be shown, with what the signatures sign; the secret
 * itself never leaves the server. The request is also sent, once and at once (no retries), when
 * the endpoint is enabled and its address is allowed (url-guard.ts, or the account's own test
 * receiver: test-receiver.ts; the transport checks the address again on the socket); otherwise
 * the preview still comes back, with why it was not sent.
 *
 * Either way it goes into the endpoint's delivery log as a test delivery (`test`): succeeded or
 * failed, with its one attempt (status code, time taken, the answer's first bytes) when it was
 * sent, or the reason it was not. The event is recorded (a real event id, as receivers
 * de-duplicate by it) with a `data` that says it is a test, and the attempt is audited
 * ("webhook.test_preview") before anything is sent.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import { recordAudit } from "../audit/audit-log";
import type { Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { parseInput } from "../validation";
import { DELIVERY_POLICY } from "./deliveries";
import { EVENTS_BY_KIND, TEST_EVENT, webhookEventDescription } from "./events.schema";
import { webhookRequest } from "./request";
import { ZTestDeliveryInput, type TTestDeliveryInput, type TTestDeliveryView } from "./test-delivery.schema";
import { allowsPrivateWebhookUrl } from "./test-receiver";
import type { Sender } from "./transport";
import { assertPublicUrl } from "./url-guard";

/** The `data` of a test event: marked as a test, so a receiver can tell it from a real change. */
function testEventPayload(event: string, endpoint: { id: string; url: string }) {
  return {
    test: true,
    message: `A test of "${event}" sent from Masthead's dashboard: nothing changed.`,
    endpoint: { id: endpoint.id, url: endpoint.url },
  };
}

export async function sendWebhookTestPreview(
  db: Db,
  args: TTestDeliveryInput & { actor: Actor; now: Date; allowPrivate: boolean; send: Sender },
): Promise<TTestDeliveryView> {
  const { actor, now } = args;
  const input = parseInput(ZTestDeliveryInput, { id: args.id, event: args.event });

  const { endpoint, event } = await withTransaction(db, async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({
      where: { id: input.id, accountId: actor.accountId },
      omit: { secret: false, previousSecret: false },
    });
    if (!endpoint) throw new AppError("NOT_FOUND", "Webhook not found.");
    if (input.event !== TEST_EVENT && !EVENTS_BY_KIND[endpoint.kind].includes(input.event)) {
      throw new AppError("BAD_REQUEST", `"${input.event}" is not an event of this webhook's kind.`, {
        details: [{ field: "event", issue: `is not a ${endpoint.kind.toLowerCase()} event` }],
      });
    }
    const event = await tx.webhookEvent.create({
      data: {
        accountId: actor.accountId,
        kind: endpoint.kind,
        name: input.event,
        payload: testEventPayload(input.event, endpoint),
        occurredAt: now,
      },
    });
    await recordAudit(tx, {
      actor,
      action: "webhook.test_preview",
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      metadata: { event: input.event, event_id: event.id.toString(), url: endpoint.url },
      now,
    });
    return { endpoint, event };
  });

  const deliveryId = randomUUID();
  const { body, headers } = webhookRequest(event, endpoint, { id: deliveryId }, now);
  const view: Omit<TTestDeliveryView, "result"> = {
    deliveryId,
    event: input.event,
    eventDescription: webhookEventDescription(input.event),
    request: {
      method: "POST",
      url: endpoint.url,
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      body,
    },
    signing: {
      signed: Boolean(endpoint.secret),
      standardSignedContent: `${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`,
      standardSignatureCount: headers["webhook-signature"]?.split(" ").length ?? 0,
    },
  };
  const result = await sendOnce(endpoint, { body, headers, actor, allowPrivate: args.allowPrivate, send: args.send });
  await logTestDelivery(db, { deliveryId, eventId: event.id, endpointId: endpoint.id, result, now });
  return { ...view, result };
}

type TestResult = TTestDeliveryView["result"];

/** Send the request once, when the endpoint is enabled and its address allowed. */
async function sendOnce(
  endpoint: { url: string; active: boolean; kind: keyof typeof DELIVERY_POLICY },
  args: { body: string; headers: Record<string, string>; actor: Actor; allowPrivate: boolean; send: Sender },
): Promise<TestResult> {
  const notSent = (error: string) => ({
    outcome: "not_sent" as const,
    statusCode: null,
    durationMs: null,
    error,
    responseExcerpt: null,
  });
  if (!endpoint.active) return notSent("This webhook is disabled: re-enable it to send to it.");
  const allowPrivate = allowsPrivateWebhookUrl(endpoint.url, args.actor.accountId, args.allowPrivate);
  try {
    await assertPublicUrl(endpoint.url, allowPrivate);
  } catch (error) {
    if (error instanceof AppError) return notSent(error.message);
    throw error;
  }
  const policy = DELIVERY_POLICY[endpoint.kind];
  const sent = await args.send({
    url: endpoint.url,
    body: args.body,
    headers: args.headers,
    connectTimeoutMs: policy.connectTimeoutMs,
    responseTimeoutMs: policy.responseTimeoutMs,
    allowPrivate,
  });
  return {
    outcome: sent.statusCode === null ? "no_response" : "answered",
    statusCode: sent.statusCode,
    durationMs: sent.durationMs,
    error: sent.error,
    responseExcerpt: sent.excerpt,
  };
}

/**
 * The test in the endpoint's delivery log, completed at once: succeeded on a 2xx, failed otherwise;
 * one attempt when it was sent (as a real delivery's), none when it was not (the reason is its error).
 */
async function logTestDelivery(
  db: Db,
  args: { deliveryId: string; eventId: bigint; endpointId: string; result: TestResult; now: Date },
): Promise<void> {
  const { result, now } = args;
  const sent = result.outcome !== "not_sent";
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const error = ok ? null : (result.error ?? (result.statusCode !== null ? `HTTP ${result.statusCode}` : null));
  const finishedAt = new Date(now.getTime() + (result.durationMs ?? 0));
  await withTransaction(db, async (tx) => {
    await tx.webhookDelivery.create({
      data: {
        id: args.deliveryId,
        eventId: args.eventId,
        endpointId: args.endpointId,
        test: true,
        status: ok ? "SUCCEEDED" : "FAILED",
        attemptCount: sent ? 1 : 0,
        nextAttemptAt: now,
        lastStatusCode: result.statusCode,
        lastError: error,
        completedAt: finishedAt,
        createdAt: now,
        updatedAt: finishedAt,
      },
    });
    if (!sent) return;
    await tx.webhookAttempt.create({
      data: {
        deliveryId: args.deliveryId,
        number: 1,
        startedAt: now,
        durationMs: result.durationMs ?? 0,
        statusCode: result.statusCode,
        error,
        responseExcerpt: result.responseExcerpt,
        succeeded: ok,
      },
    });
  });
}
