/**
 * Payment-gateway credentials in the dashboard (tRPC `paymentGateways.*`) and the browser's
 * payment options: inputs and outputs. zod only (the dashboard's forms import it). A secret goes
 * in and never comes out: outputs carry the app key, the environment, enabled and a hint (the
 * last four characters) of each secret.
 */
import { z } from "zod";

/** The providers the dashboard can configure: each has an adapter (payments/registry.ts). */
export const GATEWAY_PROVIDERS = ["razorpay"] as const;
const ZGatewayProvider = z.enum(GATEWAY_PROVIDERS);

const ZGatewayEnvironment = z.enum(["live", "sandbox"]);

const zKey = (what: string) =>
  z
    .string()
    .trim()
    .min(4, `${what} is too short`)
    .max(200, `${what} must be at most 200 characters`)
    .regex(/^[\x21-\x7e]+$/, `${what} must be printable characters without spaces`);

/**
 * Save an account's credentials for a provider. `secret` is required the first time; afterwards,
 * left out (or empty) keeps the stored one. `webhook_secret`: left out or empty keeps it, `null`
 * removes it (webhooks are then refused).
 */
export const ZUpsertGatewayInput = z.object({
  provider: ZGatewayProvider,
  environment: ZGatewayEnvironment,
  appKey: zKey("The app key"),
  secret: z.union([z.literal(""), zKey("The secret")]).optional(),
  webhookSecret: z.union([z.literal(""), zKey("The webhook secret"), z.null()]).optional(),
  enabled: z.boolean().optional(),
});
export type TUpsertGatewayInput = z.input<typeof ZUpsertGatewayInput>;

export const ZGatewayProviderInput = z.object({ provider: ZGatewayProvider });
export const ZSetGatewayEnabledInput = z.object({ provider: ZGatewayProvider, enabled: z.boolean() });

/** What the dashboard sees of a gateway: never a secret. */
export const ZGatewayAdmin = z.object({
  provider: z.string(),
  environment: ZGatewayEnvironment,
  appKey: z.string(),
  enabled: z.boolean(),
  secretHint: z.string(),
  hasWebhookSecret: z.boolean(),
  webhookSecretHint: z.string().nullable(),
  /** The path a publisher pastes into the gateway's dashboard (relative to the site's base URL). */
  webhookPath: z.string(),
  paymentTypes: z.array(z.string()),
  updatedAt: z.string(),
});
export type TGatewayAdmin = z.infer<typeof ZGatewayAdmin>;
