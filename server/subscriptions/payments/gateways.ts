/**
 * An account's payment-gateway credentials (spec §5 Payment adapter: app_key, secret,
 * webhook_secret, enabled, live or sandbox), managed by revenue staff in the dashboard. The
 * secrets are encrypted at rest (server/security/encryption.ts, purpose GATEWAY_SECRET_PURPOSE)
 * and never leave: what is listed is the app key, the environment, enabled and the last four
 * characters of each secret. A saved secret is write-only: an update that leaves it out keeps it.
 * Adapters get the decrypted credentials per call through `gatewayCredentialsFor`.
 */
import "server-only";

import { nullPrototypeRecord } from "@/server/own-keys";

import { recordAudit } from "../../audit/audit-log";
import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { encryptSecret, secretHint } from "../../security/encryption";
import { parseInput } from "../../validation";
import { GATEWAY_SECRET_PURPOSE, gatewayCredentialsFor } from "./credentials";
import {
  ZGatewayProviderInput,
  ZSetGatewayEnabledInput,
  ZUpsertGatewayInput,
  type TGatewayAdmin,
  type TGatewayCheck,
  type TUpsertGatewayInput,
} from "./gateways.schema";
import { paymentAdapterForProvider } from "./registry";

type Row = Prisma.PaymentGatewayGetPayload<object>;

/** Where a gateway posts its webhooks for this account (docs/subscriptions.md, "Payment adapters"). */
function gatewayWebhookPath(provider: string, accountId: number): string {
  return `/api/v1/payment_gateways/${encodeURIComponent(provider)}/webhooks/${accountId}`;
}

function gatewayToAdmin(row: Row): TGatewayAdmin {
  return {
    provider: row.provider,
    environment: row.environment === "live" ? "live" : "sandbox",
    appKey: row.appKey,
    enabled: row.enabled,
    stripeTax: row.stripeTax,
    stripeTaxInclusive: row.stripeTaxInclusive,
    secretHint: row.secretHint,
    hasWebhookSecret: row.webhookSecretEncrypted !== null,
    webhookSecretHint: row.webhookSecretEncrypted === null ? null : (row.webhookSecretHint ?? ""),
    webhookPath: gatewayWebhookPath(row.provider, row.accountId),
    paymentTypes: [...(paymentAdapterForProvider(row.provider)?.paymentTypes ?? [])],
    updatedAt: row.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError("NOT_FOUND", "Payment gateway not found.");

export async function listGateways(db: Db, args: { actor: Actor }): Promise<TGatewayAdmin[]> {
  const rows = await db.paymentGateway.findMany({
    where: { accountId: args.actor.accountId },
    orderBy: { provider: "asc" },
  });
  return rows.map(gatewayToAdmin);
}

/**
 * Create or replace the account's credentials for a provider. The first save needs the secret;
 * later ones keep each secret that is not sent (or sent empty). Audited without any secret: the
 * entry says which fields changed and whether a secret was replaced.
 */
export async function upsertGateway(
  db: Db,
  args: { actor: Actor; input: TUpsertGatewayInput; now?: Date },
): Promise<TGatewayAdmin> {
  const input = parseInput(ZUpsertGatewayInput, args.input);
  const accountId = args.actor.accountId;
  const secret = input.secret ? input.secret : undefined;
  const webhookSecret = input.webhookSecret === null ? null : input.webhookSecret ? input.webhookSecret : undefined;
  return withTransaction(
    db,
    async (tx) => {
      const current = await tx.paymentGateway.findUnique({
        where: { accountId_provider: { accountId, provider: input.provider } },
      });
      if (!current && !secret)
        throw new AppError("UNPROCESSABLE", "The secret is required.", {
          details: [{ field: "secret", issue: "is required when a gateway is first saved" }],
        });
      const data = {
        environment: input.environment,
        appKey: input.appKey,
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...(input.stripeTax === undefined ? {} : { stripeTax: input.stripeTax }),
        ...(input.stripeTaxInclusive === undefined ? {} : { stripeTaxInclusive: input.stripeTaxInclusive }),
        ...(secret
          ? { secretEncrypted: encryptSecret(secret, GATEWAY_SECRET_PURPOSE), secretHint: secretHint(secret) }
          : {}),
        ...(webhookSecret === null
          ? { webhookSecretEncrypted: null, webhookSecretHint: null }
          : webhookSecret
            ? {
                webhookSecretEncrypted: encryptSecret(webhookSecret, GATEWAY_SECRET_PURPOSE),
                webhookSecretHint: secretHint(webhookSecret),
              }
            : {}),
      };
      const row = current
        ? await tx.paymentGateway.update({ where: { id: current.id }, data })
        : await tx.paymentGateway.create({
            data: {
              accountId,
              provider: input.provider,
              environment: input.environment,
              appKey: input.appKey,
              enabled: input.enabled ?? true,
              stripeTax: input.stripeTax ?? false,
              stripeTaxInclusive: input.stripeTaxInclusive ?? false,
              secretEncrypted: encryptSecret(secret!, GATEWAY_SECRET_PURPOSE),
              secretHint: secretHint(secret!),
              ...(webhookSecret
                ? {
                    webhookSecretEncrypted: encryptSecret(webhookSecret, GATEWAY_SECRET_PURPOSE),
                    webhookSecretHint: secretHint(webhookSecret),
                  }
                : {}),
            },
          });
      await recordAudit(tx, {
        actor: args.actor,
        action: current ? "payment_gateway.update" : "payment_gateway.create",
        targetType: "payment_gateway",
        targetId: row.id,
        metadata: {
          provider: row.provider,
          environment: row.environment,
          enabled: row.enabled,
          ...(row.provider === "stripe"
            ? { stripe_tax: row.stripeTax, stripe_tax_inclusive: row.stripeTaxInclusive }
            : {}),
          secret_replaced: Boolean(secret),
          webhook_secret: webhookSecret === null ? "removed" : webhookSecret ? "replaced" : "kept",
        },
        now: args.now,
      });
      return gatewayToAdmin(row);
    },
    { retryUniqueClashes: true },
  );
}

export async function setGatewayEnabled(
  db: Db,
  args: { actor: Actor; input: { provider: string; enabled: boolean }; now?: Date },
): Promise<TGatewayAdmin> {
  const input = parseInput(ZSetGatewayEnabledInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await tx.paymentGateway.findUnique({
      where: { accountId_provider: { accountId: args.actor.accountId, provider: input.provider } },
    });
    if (!current) throw notFound();
    const row = await tx.paymentGateway.update({ where: { id: current.id }, data: { enabled: input.enabled } });
    await recordAudit(tx, {
      actor: args.actor,
      action: input.enabled ? "payment_gateway.enable" : "payment_gateway.disable",
      targetType: "payment_gateway",
      targetId: row.id,
      metadata: { provider: row.provider },
      now: args.now,
    });
    return gatewayToAdmin(row);
  });
}

/**
 * Check the saved credentials against the gateway (the dashboard's "Check connection", also run
 * after each save): the adapter's checkConnection, disabled credentials included (an owner checks
 * keys before offering them). 404 without saved credentials; 422 for a gateway without a check.
 */
export async function checkGateway(
  db: Db,
  args: { actor: Actor; input: { provider: string }; now?: Date },
): Promise<TGatewayCheck> {
  const input = parseInput(ZGatewayProviderInput, args.input);
  const adapter = paymentAdapterForProvider(input.provider);
  if (!adapter?.checkConnection)
    throw new AppError("UNPROCESSABLE", `${adapter?.displayName ?? input.provider} has no connection check.`, {
      details: [{ field: "provider", issue: "has no connection check" }],
    });
  const creds = await gatewayCredentialsFor(db, args.actor.accountId, input.provider, { includeDisabled: true });
  if (!creds) throw notFound();
  const result = await adapter.checkConnection(creds);
  return { provider: input.provider, ...result, checkedAt: (args.now ?? new Date()).toISOString() };
}

/** Forget the credentials (the received events stay, for the record). */
export async function deleteGateway(
  db: Db,
  args: { actor: Actor; input: { provider: string }; now?: Date },
): Promise<{ provider: string }> {
  const input = parseInput(ZGatewayProviderInput, args.input);
  return withTransaction(db, async (tx) => {
    const current = await tx.paymentGateway.findUnique({
      where: { accountId_provider: { accountId: args.actor.accountId, provider: input.provider } },
    });
    if (!current) throw notFound();
    await tx.paymentGateway.delete({ where: { id: current.id } });
    await recordAudit(tx, {
      actor: args.actor,
      action: "payment_gateway.delete",
      targetType: "payment_gateway",
      targetId: current.id,
      metadata: { provider: current.provider },
      now: args.now,
    });
    return { provider: current.provider };
  });
}

/** One gateway's entry of the payment options: its public key, environment, payment types and widget's needs. */
type PaymentOption = { app_key: string; environment: string; payment_types: string[]; [extra: string]: unknown };

/**
 * What a reader's browser needs to pay (GET /api/access/v1/payment_options): each enabled gateway
 * with its app key (public by design: Razorpay Checkout takes it as `key`, Stripe.js the
 * publishable key), environment and payment types, plus what its adapter's `browserOptions`
 * adds (Stripe: `js_url`). Never a secret.
 */
export async function listPaymentOptions(db: Db, accountId: number): Promise<Record<string, PaymentOption>> {
  const rows = await db.paymentGateway.findMany({
    where: { accountId, enabled: true },
    select: { provider: true, appKey: true, environment: true },
    orderBy: { provider: "asc" },
  });
  const options = nullPrototypeRecord<PaymentOption>();
  for (const row of rows) {
    const adapter = paymentAdapterForProvider(row.provider);
    if (!adapter || adapter.callers !== "any") continue;
    options[row.provider] = {
      app_key: row.appKey,
      environment: row.environment,
      payment_types: [...adapter.paymentTypes],
      ...adapter.browserOptions?.(),
    };
  }
  return options;
}
