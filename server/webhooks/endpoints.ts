/**
 * Managing webhook endpoints (dashboard, owner only): create, edit, disable and re-enable, rotate
 * the secret, delete, and read the delivery log. Every function is scoped to the actor's account:
 * another account's endpoint is NOT_FOUND. Changes are written to the audit log.
 */
import { randomBytes } from "node:crypto";

import { recordAudit } from "../audit/audit-log";
import type { Actor } from "../auth/actor";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { parseInput } from "../validation";
import { redeliver, sendTestEvent } from "./deliveries";
import {
  unknownEventIssues,
  ZCreateWebhookEndpointInput,
  ZListDeliveriesInput,
  ZUpdateWebhookEndpointInput,
  type TCreateWebhookEndpointInput,
  type TListDeliveriesInput,
  type TUpdateWebhookEndpointInput,
} from "./events.schema";
import { allowsPrivateWebhookUrl } from "./test-receiver";
import { assertPublicUrl } from "./url-guard";

/** How long the previous secret still signs deliveries after a rotation, so receivers can switch. */
const SECRET_ROTATION_OVERLAP_MS = 24 * 3600_000;

/**
 * A new secret as Standard Webhooks defines it: `whsec_` + standard base64 of 32 random bytes, so
 * `new Webhook(secret)` of any Standard Webhooks library verifies `webhook-signature` unchanged
 * (./signing.ts; older secrets keep working there too).
 */
function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The endpoint as the dashboard sees it: never the secret, only whether there is one. */
function present<T extends { id: string; secret?: string | null; previousSecret?: string | null }>(
  endpoint: T,
  hasSecret: boolean,
): Omit<T, "secret" | "previousSecret"> & { hasSecret: boolean } {
  const { secret: _secret, previousSecret: _previous, ...rest } = endpoint;
  return { ...rest, hasSecret };
}

async function getOwnedEndpoint(db: Db, actor: Actor, id: string) {
  const endpoint = await db.webhookEndpoint.findFirst({
    where: { id, accountId: actor.accountId },
    omit: { secret: false },
  });
  if (!endpoint) throw new AppError("NOT_FOUND", "Webhook not found.");
  return endpoint;
}

async function audit(db: Db, actor: Actor, action: string, endpointId: string, metadata: Prisma.InputJsonObject = {}) {
  await recordAudit(db, {
    actor,
    action,
    targetType: "webhook_endpoint",
    targetId: endpointId,
    metadata,
  });
}

export async function listWebhookEndpoints(db: Db, { actor }: { actor: Actor }) {
  const endpoints = await db.webhookEndpoint.findMany({
    where: { accountId: actor.accountId },
    orderBy: { createdAt: "desc" },
    omit: { secret: false },
  });
  const stats = await db.webhookDelivery.groupBy({
    by: ["endpointId", "status"],
    where: { endpointId: { in: endpoints.map((e) => e.id) } },
    _count: { _all: true },
  });
  return endpoints.map((endpoint) => {
    const counts = { PENDING: 0, SUCCEEDED: 0, FAILED: 0 };
    for (const row of stats) if (row.endpointId === endpoint.id) counts[row.status] = row._count._all;
    return { ...present(endpoint, Boolean(endpoint.secret)), deliveryCounts: counts };
  });
}

export async function getWebhookEndpoint(db: Db, { actor, id }: { actor: Actor; id: string }) {
  const endpoint = await getOwnedEndpoint(db, actor, id);
  return present(endpoint, Boolean(endpoint.secret));
}

/** Returns the secret once, when one is generated. */
export async function createWebhookEndpoint(
  db: Db,
  { actor, input, allowPrivate }: { actor: Actor; input: TCreateWebhookEndpointInput; allowPrivate: boolean },
) {
  const args = parseInput(ZCreateWebhookEndpointInput, input);
  await assertPublicUrl(args.url, allowsPrivateWebhookUrl(args.url, actor.accountId, allowPrivate));
  const secret = args.withSecret ? generateWebhookSecret() : null;
  return withTransaction(db, async (tx) => {
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        accountId: actor.accountId,
        kind: args.kind,
        url: args.url,
        description: args.description,
        events: [...new Set(args.events)],
        secret,
      },
    });
    await audit(tx, actor, "webhook.create", endpoint.id, { url: args.url, kind: args.kind, events: args.events });
    return { endpoint: present(endpoint, Boolean(secret)), secret };
  });
}

export async function updateWebhookEndpoint(
  db: Db,
  { actor, input, allowPrivate }: { actor: Actor; input: TUpdateWebhookEndpointInput; allowPrivate: boolean },
) {
  const args = parseInput(ZUpdateWebhookEndpointInput, input);
  const current = await getOwnedEndpoint(db, actor, args.id);
  const issues = args.events ? unknownEventIssues(current.kind, args.events) : [];
  if (issues.length) {
    throw new AppError("BAD_REQUEST", issues.map((i) => i.message).join("; "), {
      details: issues.map((i) => ({ field: `events.${i.index}`, issue: i.message })),
    });
  }
  if (args.url && args.url !== current.url)
    await assertPublicUrl(args.url, allowsPrivateWebhookUrl(args.url, actor.accountId, allowPrivate));
  return withTransaction(db, async (tx) => {
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        ...(args.url !== undefined ? { url: args.url } : {}),
        ...(args.description !== undefined ? { description: args.description } : {}),
        ...(args.events !== undefined ? { events: [...new Set(args.events)] } : {}),
      },
      omit: { secret: false },
    });
    await audit(tx, actor, "webhook.update", endpoint.id, {
      url: args.url,
      events: args.events,
      description: args.description,
    });
    return present(endpoint, Boolean(endpoint.secret));
  });
}

/** Disable, or re-enable (which also forgets the failure streak that may have disabled it). */
export async function setWebhookEndpointActive(db: Db, args: { actor: Actor; id: string; active: boolean; now: Date }) {
  const { actor } = args;
  const current = await getOwnedEndpoint(db, actor, args.id);
  return withTransaction(db, async (tx) => {
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: args.active
        ? { active: true, disabledAt: null, disabledReason: null, failingSince: null }
        : { active: false, disabledAt: args.now, disabledReason: "admin" },
      omit: { secret: false },
    });
    await audit(tx, actor, args.active ? "webhook.enable" : "webhook.disable", endpoint.id);
    return present(endpoint, Boolean(endpoint.secret));
  });
}

/**
 * A new secret, returned once. The old one keeps signing (a second `v1` entry in
 * webhook-signature) for SECRET_ROTATION_OVERLAP_MS; X-Qt-Signature, which has room for one
 * signature only, uses the new secret at once.
 */
export async function rotateWebhookSecret(db: Db, args: { actor: Actor; id: string; now: Date }) {
  const { actor } = args;
  const current = await getOwnedEndpoint(db, actor, args.id);
  const secret = generateWebhookSecret();
  return withTransaction(db, async (tx) => {
    await tx.webhookEndpoint.update({
      where: { id: current.id },
      data: {
        secret,
        previousSecret: current.secret,
        previousSecretExpiresAt: current.secret ? new Date(args.now.getTime() + SECRET_ROTATION_OVERLAP_MS) : null,
      },
    });
    await audit(tx, actor, "webhook.rotate_secret", current.id);
    return { secret };
  });
}

export async function deleteWebhookEndpoint(db: Db, { actor, id }: { actor: Actor; id: string }) {
  await withTransaction(db, async (tx) => {
    const current = await getOwnedEndpoint(tx, actor, id);
    await tx.webhookEndpoint.delete({ where: { id: current.id } });
    await audit(tx, actor, "webhook.delete", current.id, { url: current.url });
  });
}

/** "Send test event": a webhook-test delivery to this endpoint. */
export async function sendWebhookTest(db: Db, { actor, id, now }: { actor: Actor; id: string; now: Date }) {
  return withTransaction(db, async (tx) => {
    const result = await sendTestEvent(tx, { accountId: actor.accountId, endpointId: id, now });
    await audit(tx, actor, "webhook.send_test", id, { delivery_id: result.deliveryId });
    return result;
  });
}

/** "Redeliver": the event of a completed delivery again, as a new delivery. */
export async function redeliverWebhook(
  db: Db,
  { actor, deliveryId, now }: { actor: Actor; deliveryId: string; now: Date },
) {
  return withTransaction(db, async (tx) => {
    const result = await redeliver(tx, { accountId: actor.accountId, deliveryId, now });
    const delivery = await tx.webhookDelivery.findUniqueOrThrow({
      where: { id: result.deliveryId },
      select: { endpointId: true },
    });
    await audit(tx, actor, "webhook.redeliver", delivery.endpointId, {
      delivery_id: deliveryId,
      new_delivery_id: result.deliveryId,
    });
    return result;
  });
}

/** The delivery log of one endpoint, newest first, with each delivery's attempts. */
export async function listWebhookDeliveries(db: Db, { actor, ...input }: { actor: Actor } & TListDeliveriesInput) {
  const args = parseInput(ZListDeliveriesInput, input);
  await getOwnedEndpoint(db, actor, args.endpointId);
  const rows = await db.webhookDelivery.findMany({
    where: { endpointId: args.endpointId, ...(args.status ? { status: args.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: args.limit + 1,
    ...(args.cursor ? { cursor: { id: args.cursor }, skip: 1 } : {}),
    include: {
      event: { select: { id: true, name: true, occurredAt: true, payload: true } },
      attempts: { orderBy: { number: "asc" } },
    },
  });
  const page = rows.slice(0, args.limit);
  return {
    deliveries: page.map((d) => ({ ...d, event: { ...d.event, id: d.event.id.toString() } })),
    nextCursor: rows.length > args.limit ? page.at(-1)?.id : undefined,
  };
}
