/**
 * An account's payment-gateway credentials, decrypted for one adapter call (spec §5). The
 * dashboard's gateway settings write them (encrypted: server/security/encryption.ts); nothing
 * returns them whole.
 */
import "server-only";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { decryptSecret } from "../../security/encryption";
import type { GatewayCredentials, GatewayEnvironment, PaymentAdapter } from "./adapter";

export const GATEWAY_SECRET_PURPOSE = "payment-gateway";

/**
 * The account's enabled credentials for `provider`, or null when it has none (or disabled ones).
 * `includeDisabled`: also disabled ones (with `enabled: false`), for the gateway's webhooks and
 * refunds: a payment made while the gateway was enabled is still settled after it is disabled.
 */
export async function gatewayCredentialsFor(
  db: Db,
  accountId: number,
  provider: string,
  options: { includeDisabled?: boolean } = {},
): Promise<GatewayCredentials | null> {
  const row = await db.paymentGateway.findUnique({ where: { accountId_provider: { accountId, provider } } });
  if (!row || (!row.enabled && !options.includeDisabled)) return null;
  return {
    app_key: row.appKey,
    secret: decryptSecret(row.secretEncrypted, GATEWAY_SECRET_PURPOSE),
    enabled: row.enabled,
    webhook_secret: row.webhookSecretEncrypted
      ? decryptSecret(row.webhookSecretEncrypted, GATEWAY_SECRET_PURPOSE)
      : null,
    environment: row.environment as GatewayEnvironment,
    ...(row.provider === "stripe" ? { stripe_tax: { enabled: row.stripeTax, inclusive: row.stripeTaxInclusive } } : {}),
  };
}

/**
 * What `adapter` needs to call its gateway for the account: null for an adapter without one (no
 * payment taken), the enabled credentials, or a 422 when the account has none.
 */
export async function credentialsFor(db: Db, accountId: number, adapter: PaymentAdapter) {
  if (!adapter.provider) return null;
  const creds = await gatewayCredentialsFor(db, accountId, adapter.provider);
  if (!creds) {
    const field = "subscription.payment.payment_type";
    const issue = `has no enabled ${adapter.provider} credentials on this account`;
    throw new AppError("UNPROCESSABLE", `${field} ${issue}.`, { details: [{ field, issue }] });
  }
  return creds;
}
