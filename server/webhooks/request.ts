/**
 * The request a delivery sends: body bytes and headers, from the event and the endpoint. Pure.
 */
import type { TWebhookKind } from "./events.schema";
import { qtSignature, standardSignature } from "./signing";

type WebhookEventRecord = {
  id: bigint | number | string;
  kind: TWebhookKind;
  name: string;
  payload: unknown;
  occurredAt: Date;
};
type EndpointSecrets = {
  secret: string | null;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

/** The body, by kind. Content: the spec's {"v1": {"event": {id, name, time}, "data"}} with time in epoch ms. */
function webhookBody(event: WebhookEventRecord): string {
  const id = Number(event.id);
  if (event.kind === "CONTENT") {
    return JSON.stringify({
      v1: { event: { id, name: event.name, time: event.occurredAt.getTime() }, data: event.payload },
    });
  }
  return JSON.stringify({
    id,
    event: event.name,
    event_timestamp: event.occurredAt.toISOString(),
    data: event.payload,
  });
}

export function webhookRequest(
  event: WebhookEventRecord,
  endpoint: EndpointSecrets,
  delivery: { id: string },
  now: Date,
): { body: string; headers: Record<string, string> } {
  const body = webhookBody(event);
  const messageId = `evt_${String(event.id)}`;
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = [
    endpoint.secret,
    endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? endpoint.previousSecret : null,
  ].filter((s): s is string => Boolean(s));
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": "Masthead-Webhooks/1.0",
    "X-Qt-Signature": qtSignature(body, endpoint.secret),
    "X-Masthead-Event-Id": String(event.id),
    "X-Masthead-Event": event.name,
    "X-Masthead-Delivery-Id": delivery.id,
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
  };
  if (secrets.length) headers["webhook-signature"] = standardSignature(messageId, timestamp, body, secrets);
  return { body, headers };
}
