/**
 * Payment-gateway credentials in the dashboard (tRPC `paymentGateways.*`) and the browser's
 * payment options: inputs and outputs. zod only (the dashboard's forms import it). A secret goes
 * in and never comes out: outputs carry the app key, the environment, enabled and a hint (the
 * last four characters) of each secret.
 */
import { z } from "zod";

/** The providers the dashboard can configure: each has an adapter (payments/registry.ts). */
export const GATEWAY_PROVIDERS = ["razorpay", "stripe"] as const;
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
export const ZUpsertGatewayInput = z
  .object({
    provider: ZGatewayProvider,
    environment: ZGatewayEnvironment,
    appKey: zKey("The app key"),
    secret: z.union([z.literal(""), zKey("The secret")]).optional(),
    webhookSecret: z.union([z.literal(""), zKey("The webhook secret"), z.null()]).optional(),
    enabled: z.boolean().optional(),
    /** Stripe only: the checkout's tax is Stripe Tax's instead of the account's tax rules. Left out: kept (new: off). */
    stripeTax: z.boolean().optional(),
    /** Stripe Tax: prices include the tax where no tax rule of the buyer's country says otherwise. */
    stripeTaxInclusive: z.boolean().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.provider !== "stripe") {
      for (const field of ["stripeTax", "stripeTaxInclusive"] as const)
        if (input[field]) ctx.addIssue({ code: "custom", path: [field], message: "Stripe Tax is for Stripe only." });
      return;
    }
    for (const issue of stripeKeyIssues(input)) ctx.addIssue({ code: "custom", ...issue });
  });

/**
 * Stripe's keys say their mode: `pk_test_…`/`pk_live_…` (publishable, the app key),
 * `sk_test_…`/`sk_live_…` or a restricted `rk_…` (the secret), `whsec_…` (the webhook's signing
 * secret). The keys must be of one mode, and the environment is that mode (test = sandbox).
 */
function stripeKeyIssues(input: {
  environment: string;
  appKey: string;
  secret?: string;
  webhookSecret?: string | null;
}): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const mode = /^pk_(test|live)_[A-Za-z0-9]+$/.exec(input.appKey)?.[1];
  if (!mode)
    issues.push({
      path: ["appKey"],
      message: "The Stripe publishable key starts with pk_test_ or pk_live_ (Developers → API keys).",
    });
  else if ((mode === "test") !== (input.environment === "sandbox"))
    issues.push({
      path: ["environment"],
      message: `The publishable key is a ${mode} key: the environment must be ${mode === "test" ? "sandbox" : "live"}.`,
    });
  if (input.secret) {
    const secretMode = /^[sr]k_(test|live)_[A-Za-z0-9]+$/.exec(input.secret)?.[1];
    if (!secretMode)
      issues.push({
        path: ["secret"],
        message: "The Stripe secret key starts with sk_test_, sk_live_, rk_test_ or rk_live_.",
      });
    else if (mode && secretMode !== mode)
      issues.push({
        path: ["secret"],
        message: `The secret key is a ${secretMode} key, the publishable key a ${mode} key.`,
      });
  }
  if (input.webhookSecret && !/^whsec_[A-Za-z0-9]+$/.test(input.webhookSecret))
    issues.push({ path: ["webhookSecret"], message: "The Stripe webhook signing secret starts with whsec_." });
  return issues;
}
export type TUpsertGatewayInput = z.input<typeof ZUpsertGatewayInput>;

export const ZGatewayProviderInput = z.object({ provider: ZGatewayProvider });
export const ZSetGatewayEnabledInput = z.object({ provider: ZGatewayProvider, enabled: z.boolean() });

/** What the dashboard sees of a gateway: never a secret. */
export const ZGatewayAdmin = z.object({
  provider: z.string(),
  environment: ZGatewayEnvironment,
  appKey: z.string(),
  enabled: z.boolean(),
  /** Stripe: the checkout's tax is Stripe Tax's; prices include it (stripeTaxInclusive) or not. */
  stripeTax: z.boolean(),
  stripeTaxInclusive: z.boolean(),
  secretHint: z.string(),
  hasWebhookSecret: z.boolean(),
  webhookSecretHint: z.string().nullable(),
  /** The path a publisher pastes into the gateway's dashboard (relative to the site's base URL). */
  webhookPath: z.string(),
  paymentTypes: z.array(z.string()),
  updatedAt: z.string(),
});
export type TGatewayAdmin = z.infer<typeof ZGatewayAdmin>;

/** The dashboard's "Check connection" (tRPC paymentGateways.check): what is wrong, in words; never a secret. */
export const ZGatewayCheck = z.object({
  provider: z.string(),
  ok: z.boolean(),
  mode: z.enum(["test", "live"]).nullable(),
  environment: ZGatewayEnvironment,
  environmentMatches: z.boolean(),
  reached: z.boolean(),
  problems: z.array(z.object({ code: z.string(), message: z.string() })),
  notes: z.array(z.string()),
  checkedAt: z.string(),
});
export type TGatewayCheck = z.infer<typeof ZGatewayCheck>;
