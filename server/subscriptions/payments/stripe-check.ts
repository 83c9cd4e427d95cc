/**
 * The Stripe connection check (docs/subscriptions.md, "Stripe" → "Connection check"): what is
 * wrong with an account's Stripe keys, in words its owner can act on, found without moving money
 * or changing anything at Stripe.
 *
 * - The keys' modes, from their prefixes: the publishable key (pk_test_/pk_live_) and the secret
 *   (sk_/rk_ test/live) must be of one mode, and that mode must be the account's environment
 *   (test = sandbox).
 * - One probe per permission the adapter needs (a full secret key has all of them; a restricted
 *   key only those it was given). A read is a retrieve of an object that does not exist; a write
 *   is an empty update of one that does not exist (harmless even if it did). Stripe checks the
 *   key's permission for the endpoint before it looks for the object: 404 (or 400 naming the
 *   missing object) means the key may, 403 that it may not, 401 that the key itself is refused.
 * - No webhook signing secret: Stripe's webhooks are refused, so Masthead hears no renewal.
 * - With the account's Stripe Tax on: whether Stripe Tax is active on the Stripe account (its tax
 *   settings' status), since every checkout through Stripe is refused until it is.
 *
 * The secret goes to Stripe only, as the SDK's Bearer token: it is never in the answer, a log or
 * an error (Stripe's messages, which mask the key, are not passed on either).
 */
import "server-only";

import Stripe from "stripe";

import type { GatewayCheck, GatewayCheckProblem, GatewayCredentials } from "./adapter";
import { stripeTaxStatus } from "./stripe-tax";

/** A probe id no Stripe object has (Stripe's ids are `<prefix>_` + 14 or more letters and digits). */
const NONE = "masthead_connection_check";

type Probe = {
  /** What the adapter does with it, for the owner: "take one-time payments". */
  needed: string;
  /** Stripe's name of the permission, as its dashboard shows it on a restricted key. */
  permission: string;
  call: (stripe: Stripe) => Promise<unknown>;
};

/** Every permission the Stripe adapter (stripe.ts) needs, with the call that shows whether the key has it. */
export const STRIPE_PROBES: readonly Probe[] = [
  {
    needed: "take one-time payments and read them back",
    permission: "PaymentIntents: Write",
    call: (s) => s.paymentIntents.update(`pi_${NONE}`, {}),
  },
  {
    needed: "make a Stripe customer for each subscriber",
    permission: "Customers: Write",
    call: (s) => s.customers.update(`cus_${NONE}`, {}),
  },
  {
    needed: "make a product for each recurring plan",
    permission: "Products: Write",
    call: (s) => s.products.update(`prod_${NONE}`, {}),
  },
  {
    needed: "check a plan's Stripe price (stripe_price_id)",
    permission: "Prices: Read",
    call: (s) => s.prices.retrieve(`price_${NONE}`),
  },
  {
    needed: "start, read and cancel subscriptions",
    permission: "Subscriptions: Write",
    call: (s) => s.subscriptions.update(`sub_${NONE}`, {}),
  },
  {
    needed: "read a subscription's invoices and pay a failed renewal with a new card",
    permission: "Invoices: Write",
    call: (s) => s.invoices.update(`in_${NONE}`, {}),
  },
  {
    needed: "refund payments",
    permission: "Refunds: Write",
    call: (s) => s.refunds.update(`re_${NONE}`, {}),
  },
  {
    needed: "take a subscriber's new card",
    permission: "SetupIntents: Read",
    call: (s) => s.setupIntents.retrieve(`seti_${NONE}`),
  },
  {
    needed: "send subscribers to the Customer Portal to change their card",
    permission: "Customer portal: Write",
    call: (s) => s.billingPortal.sessions.create({ customer: `cus_${NONE}` }),
  },
];

type Outcome = "allowed" | "forbidden" | "refused" | "unreachable" | "failing";

async function probe(stripe: Stripe, call: (stripe: Stripe) => Promise<unknown>): Promise<Outcome> {
  try {
    await call(stripe);
    return "allowed";
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    if (error instanceof Stripe.errors.StripeConnectionError) return "unreachable";
    if (error instanceof Stripe.errors.StripeAuthenticationError || error.statusCode === 401) return "refused";
    if (error instanceof Stripe.errors.StripePermissionError || error.statusCode === 403) return "forbidden";
    if ((error.statusCode ?? 0) >= 500 || error.statusCode === 429) return "failing";
    // 404 resource_missing, 400 naming the missing object: Stripe let the key through.
    return "allowed";
  }
}

const keyMode = (key: string, prefixes: string): "test" | "live" | null =>
  (new RegExp(`^(?:${prefixes})_(test|live)_`).exec(key)?.[1] as "test" | "live" | undefined) ?? null;

const ENVIRONMENT_OF = { test: "sandbox", live: "live" } as const;

/**
 * Check `creds` against Stripe through `stripe` (a client for `creds.secret`). `extraProbes`:
 * permissions an account's settings add (Stripe Tax).
 */
export async function checkStripeConnection(
  stripe: Stripe,
  creds: GatewayCredentials,
  extraProbes: readonly Probe[] = [],
): Promise<GatewayCheck> {
  const problems: GatewayCheckProblem[] = [];
  const notes: string[] = [];
  const publishableMode = keyMode(creds.app_key, "pk");
  const secretMode = keyMode(creds.secret, "sk|rk");
  const restricted = creds.secret.startsWith("rk_");
  const mode = publishableMode && publishableMode === secretMode ? publishableMode : null;
  if (publishableMode && secretMode && publishableMode !== secretMode)
    problems.push({
      code: "key_modes_differ",
      message:
        `The publishable key is a ${publishableMode} key (pk_${publishableMode}_…) and the secret key a ${secretMode} key ` +
        `(${restricted ? "rk" : "sk"}_${secretMode}_…): Stripe.js and the server would work in different modes, so every ` +
        `payment fails. Copy both keys from the same mode in Stripe (Developers → API keys; the test-mode switch) and save them.`,
    });
  const keysMode = mode ?? secretMode ?? publishableMode;
  const environmentMatches = keysMode !== null && ENVIRONMENT_OF[keysMode] === creds.environment;
  if (keysMode && !environmentMatches)
    problems.push({
      code: "environment_mismatch",
      message:
        keysMode === "test"
          ? "The keys are test-mode keys but the environment is set to live: readers would be told they pay for real while no card is charged. Set the environment to sandbox, or save the live keys."
          : "The keys are live-mode keys but the environment is set to sandbox: readers' cards would be charged for real. Set the environment to live, or save the test keys.",
    });
  if (mode) notes.push(mode === "live" ? "Live mode: readers' cards are charged." : "Test mode: no card is charged.");

  const first = STRIPE_PROBES[0]!;
  const reachedAt = await probe(stripe, first.call);
  const done = (reached: boolean): GatewayCheck => {
    webhookProblem(creds, problems, notes);
    return {
      ok: problems.length === 0,
      mode,
      environment: creds.environment,
      environmentMatches,
      reached,
      problems,
      notes,
    };
  };
  if (reachedAt === "unreachable") {
    problems.push({
      code: "unreachable",
      message:
        "Stripe could not be reached from this server (no connection, or it timed out): nothing else could be checked. Try again; if it lasts, the server's outgoing connections to api.stripe.com are blocked.",
    });
    return done(false);
  }
  if (reachedAt === "failing") {
    problems.push({
      code: "stripe_unavailable",
      message:
        "Stripe answered with an error on its side (or is limiting requests): nothing else could be checked. Try again in a few minutes.",
    });
    return done(true);
  }
  if (reachedAt === "refused") {
    problems.push({
      code: "secret_rejected",
      message:
        "Stripe refused the secret key (401): it is mistyped, was rolled, or was deleted. Copy the secret key again from Stripe (Developers → API keys) and save it.",
    });
    return done(true);
  }
  const rest = [...STRIPE_PROBES.slice(1), ...extraProbes];
  const outcomes = [reachedAt, ...(await Promise.all(rest.map((p) => probe(stripe, p.call))))];
  const probes = [first, ...rest];
  const missing = probes.filter((_, i) => outcomes[i] === "forbidden");
  for (const p of missing)
    problems.push({
      code: "permission_missing",
      message: `The restricted key lacks the permission “${p.permission}”, so Masthead cannot ${p.needed}. In Stripe (Developers → API keys), edit the key and give it ${p.permission}.`,
    });
  if (outcomes.some((o) => o === "failing" || o === "unreachable"))
    problems.push({
      code: "stripe_unavailable",
      message:
        "Some of Stripe's answers were errors on its side: the key's permissions could not all be checked. Try again in a few minutes.",
    });
  else if (missing.length === 0)
    notes.push(
      restricted ? "The restricted key works and has every permission Masthead needs." : "The secret key works.",
    );
  if (creds.stripe_tax?.enabled) {
    const tax = await stripeTaxStatus(stripe);
    if (tax.problem) problems.push(tax.problem);
    if (tax.note) notes.push(tax.note);
  }
  return done(true);
}

function webhookProblem(creds: GatewayCredentials, problems: GatewayCheckProblem[], notes: string[]) {
  if (creds.webhook_secret) {
    if (!/^whsec_/.test(creds.webhook_secret))
      problems.push({
        code: "webhook_secret_invalid",
        message:
          "The webhook signing secret does not start with whsec_: copy it again from the endpoint in Stripe (Developers → Webhooks).",
      });
    else notes.push("A webhook signing secret is set: Stripe's events are checked against it.");
    return;
  }
  problems.push({
    code: "webhook_secret_missing",
    message:
      "No webhook signing secret is set, so Stripe's webhooks are refused: Masthead hears of no renewal, failed charge, refund or dispute, and recurring subscriptions lapse at their period's end although Stripe charges the reader. In Stripe (Developers → Webhooks) add an endpoint with the webhook URL shown here, and save its signing secret (whsec_…).",
  });
}
