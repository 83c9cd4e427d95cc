/**
 * The Stripe connection check against the fake Stripe server, through the official SDK: each
 * failure an owner can meet, in words (a refused secret, keys of two modes, the environment, a
 * restricted key without a permission, no webhook secret, Stripe unreachable), nothing changed at
 * Stripe, and never the secret in the answer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import type { FakeStripe } from "../../testing/fake-stripe";
import { fakeStripeAdapter, fakeStripeCredentials } from "../../testing/fake-stripe-adapter";
import { withFakeStripe } from "../../testing/fake-stripe-hooks";
import { ADAPTER_PERMISSIONS } from "../../testing/fake-stripe-keys";
import type { GatewayCheck, GatewayCredentials } from "./adapter";
import { STRIPE_PROBES } from "./stripe-check";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started), { resetEach: true });

const adapter = (connection = () => fake.sdkOptions) => fakeStripeAdapter(fake, connection);
const creds = (over: Partial<GatewayCredentials> = {}) => fakeStripeCredentials(fake, over);
const check = async (c: GatewayCredentials, connection?: () => FakeStripe["sdkOptions"]) => {
  const result = await adapter(connection).checkConnection!(c);
  // Whatever it finds, the answer never holds the secret key.
  expect(JSON.stringify(result)).not.toContain(c.secret.slice(8));
  return result;
};
const codes = (result: GatewayCheck) => result.problems.map((p) => p.code);

const ALL = ADAPTER_PERMISSIONS;

describe("Stripe connection check", () => {
  it("passes working test keys with a webhook secret, in test mode, changing nothing at Stripe", async () => {
    const result = await check(creds());
    expect(result).toMatchObject({ ok: true, mode: "test", environment: "sandbox", environmentMatches: true });
    expect(result.problems).toEqual([]);
    expect(result.notes).toContain("Test mode: no card is charged.");
    expect(result.notes).toContain("The secret key works.");
    // One probe per permission, none of them a create of anything.
    expect(fake.calls).toHaveLength(STRIPE_PROBES.length);
    expect(fake.state.customers.size + fake.state.paymentIntents.size + fake.state.products.size).toBe(0);
  });

  it("says the secret key was refused (401) when Stripe does not know it", async () => {
    const rolled = fake.addKey();
    fake.revokeKey(rolled);
    const result = await check(creds({ secret: rolled }));
    expect(result.ok).toBe(false);
    expect(result.reached).toBe(true);
    expect(codes(result)).toEqual(["secret_rejected"]);
    expect(result.problems[0]!.message).toMatch(/Stripe refused the secret key \(401\)/);
  });

  it("says the publishable and secret keys are of two modes, and which", async () => {
    const live = fake.addKey({ mode: "live" });
    const result = await check(creds({ secret: live }));
    expect(result.mode).toBeNull();
    expect(codes(result)).toEqual(["key_modes_differ", "environment_mismatch"]);
    expect(result.problems[0]!.message).toMatch(
      /publishable key is a test key \(pk_test_…\) and the secret key a live key \(sk_live_…\)/,
    );
  });

  it("shows the mode and whether it is the account's environment", async () => {
    const liveEnv = await check(creds({ environment: "live" }));
    expect(liveEnv).toMatchObject({ mode: "test", environment: "live", environmentMatches: false, ok: false });
    expect(codes(liveEnv)).toEqual(["environment_mismatch"]);
    expect(liveEnv.problems[0]!.message).toMatch(/test-mode keys but the environment is set to live/);
    const liveKeys = await check(
      creds({ app_key: `pk_live_${"a".repeat(24)}`, secret: fake.addKey({ mode: "live" }), environment: "sandbox" }),
    );
    expect(liveKeys).toMatchObject({ mode: "live", environmentMatches: false });
    expect(liveKeys.problems[0]!.message).toMatch(
      /live-mode keys but the environment is set to sandbox: readers' cards would be charged/,
    );
    const live = await check(
      creds({ app_key: `pk_live_${"a".repeat(24)}`, secret: fake.addKey({ mode: "live" }), environment: "live" }),
    );
    expect(live).toMatchObject({ ok: true, mode: "live", environmentMatches: true });
    expect(live.notes).toContain("Live mode: readers' cards are charged.");
  });

  it("names each permission a restricted key lacks (Stripe's 403), and passes one that has them all", async () => {
    const full = await check(creds({ secret: fake.addKey({ permissions: ALL }) }));
    expect(full.ok).toBe(true);
    expect(full.notes).toContain("The restricted key works and has every permission Masthead needs.");

    const partial = await check(
      creds({
        secret: fake.addKey({
          permissions: ALL.filter((p) => p !== "customer_write" && p !== "refund_write").concat(["refund_read"]),
        }),
      }),
    );
    expect(partial.ok).toBe(false);
    expect(codes(partial)).toEqual(["permission_missing", "permission_missing"]);
    expect(partial.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/lacks the permission “Customers: Write”, so Masthead cannot make a Stripe customer/),
      expect.stringMatching(/lacks the permission “Refunds: Write”, so Masthead cannot refund payments/),
    ]);

    // Without the first probe's permission too: the key still works, each lack is named.
    const bare = await check(creds({ secret: fake.addKey({ permissions: ["price_read"] }) }));
    expect(bare.problems).toHaveLength(STRIPE_PROBES.length - 1);
    expect(bare.problems[0]!.message).toMatch(/“PaymentIntents: Write”/);
  });

  it("says that without a webhook signing secret Masthead hears no renewals", async () => {
    const result = await check(creds({ webhook_secret: null }));
    expect(codes(result)).toEqual(["webhook_secret_missing"]);
    expect(result.problems[0]!.message).toMatch(/Stripe's webhooks are refused: Masthead hears of no renewal/);
  });

  it("says Stripe could not be reached, and checks nothing else", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await check(creds(), () => ({ host: "127.0.0.1", port, protocol: "http" }));
    expect(result).toMatchObject({ ok: false, reached: false });
    expect(codes(result)).toEqual(["unreachable"]);
    expect(result.problems[0]!.message).toMatch(/Stripe could not be reached from this server/);
  });

  it("says Stripe is failing on its side (5xx) rather than blaming the keys", async () => {
    fake.failNext(1, 500);
    const result = await check(creds());
    expect(codes(result)).toEqual(["stripe_unavailable"]);
  });
});
