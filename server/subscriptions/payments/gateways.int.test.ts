/** Payment-gateway credentials: tRPC paymentGateways.*, their encryption at rest, and GET /api/access/v1/payment_options. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createTestStaff, createTestTeam, trpcCodeOf } from "@/server/testing/staff";

import { gatewayCredentialsFor } from "./credentials";

const SECRET = "rzp-key-secret-Alpha-0123456789";
const WEBHOOK_SECRET = "rzp-webhook-secret-Beta-9876543210";
const NEW_SECRET = "rzp-key-secret-Gamma-5555555555";

/** Every place a secret could leak to: asserted to hold none of them. */
function expectNoSecret(value: unknown, secrets = [SECRET, WEBHOOK_SECRET, NEW_SECRET]) {
  const text = JSON.stringify(value);
  for (const s of secrets) expect(text).not.toContain(s);
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("payment gateways (dashboard)", () => {
  it("saves credentials encrypted, shows only hints, keeps a secret that is not re-entered, and audits without secrets", async () => {
    const db = await getDb();
    const { revenue, editor } = await createTestTeam(db, "gateways", { revenue: ["REVENUE"], editor: ["EDITOR"] });
    const accountId = revenue.account.id;

    // The first save needs the secret.
    expect(
      await trpcCodeOf(
        revenue.caller.paymentGateways.save({
          provider: "razorpay",
          environment: "sandbox",
          appKey: "rzp_test_AAAA1111",
        }),
      ),
    ).toBe("UNPROCESSABLE_CONTENT");

    const saved = await revenue.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "sandbox",
      appKey: "rzp_test_AAAA1111",
      secret: SECRET,
      webhookSecret: WEBHOOK_SECRET,
    });
    expect(saved).toMatchObject({
      provider: "razorpay",
      environment: "sandbox",
      appKey: "rzp_test_AAAA1111",
      enabled: true,
      secretHint: "6789",
      hasWebhookSecret: true,
      webhookSecretHint: "3210",
      webhookPath: `/api/v1/payment_gateways/razorpay/webhooks/${accountId}`,
      paymentTypes: ["razorpay", "razorpay_recurring"],
    });
    expectNoSecret(saved);

    // At rest: no column holds a secret in clear; the adapter's credentials decrypt to them.
    const row = await db.paymentGateway.findUniqueOrThrow({
      where: { accountId_provider: { accountId, provider: "razorpay" } },
    });
    expectNoSecret(row);
    const [raw] = await db.$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM payment_gateways WHERE account_id = $1`,
      accountId,
    );
    expectNoSecret(raw);
    expect(row.secretEncrypted).toMatch(/^v1\./);
    expect(await gatewayCredentialsFor(db, accountId, "razorpay")).toEqual({
      app_key: "rzp_test_AAAA1111",
      secret: SECRET,
      webhook_secret: WEBHOOK_SECRET,
      enabled: true,
      environment: "sandbox",
    });

    // Update without the secrets (empty = keep): the stored ones stay.
    const updated = await revenue.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "live",
      appKey: "rzp_live_BBBB2222",
      secret: "",
    });
    expect(updated).toMatchObject({
      environment: "live",
      appKey: "rzp_live_BBBB2222",
      secretHint: "6789",
      webhookSecretHint: "3210",
    });
    expect((await gatewayCredentialsFor(db, accountId, "razorpay"))?.secret).toBe(SECRET);

    // Replace the secret, remove the webhook secret.
    await revenue.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "live",
      appKey: "rzp_live_BBBB2222",
      secret: NEW_SECRET,
      webhookSecret: null,
    });
    expect(await gatewayCredentialsFor(db, accountId, "razorpay")).toMatchObject({
      secret: NEW_SECRET,
      webhook_secret: null,
    });
    const list = await revenue.caller.paymentGateways.list();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ secretHint: "5555", hasWebhookSecret: false, webhookSecretHint: null });
    expectNoSecret(list);

    // Disable: adapters no longer get it; enable again.
    expect((await revenue.caller.paymentGateways.setEnabled({ provider: "razorpay", enabled: false })).enabled).toBe(
      false,
    );
    expect(await gatewayCredentialsFor(db, accountId, "razorpay")).toBeNull();
    expect((await gatewayCredentialsFor(db, accountId, "razorpay", { includeDisabled: true }))?.enabled).toBe(false);
    await revenue.caller.paymentGateways.setEnabled({ provider: "razorpay", enabled: true });

    // Audited, without secrets.
    const audit = await db.auditLog.findMany({
      where: { accountId, targetType: "payment_gateway" },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => a.action)).toEqual([
      "payment_gateway.create",
      "payment_gateway.update",
      "payment_gateway.update",
      "payment_gateway.disable",
      "payment_gateway.enable",
    ]);
    expect(audit[2]!.metadata).toMatchObject({ secret_replaced: true, webhook_secret: "removed" });
    expectNoSecret(audit);

    // Roles and accounts.
    expect(await trpcCodeOf(editor.caller.paymentGateways.list())).toBe("FORBIDDEN");
    expect(
      await trpcCodeOf(
        editor.caller.paymentGateways.save({
          provider: "razorpay",
          environment: "live",
          appKey: "rzp_x_1234",
          secret: "abcdefgh",
        }),
      ),
    ).toBe("FORBIDDEN");
    const other = await createTestStaff(db, { roles: ["OWNER"] });
    expect(await other.caller.paymentGateways.list()).toEqual([]);
    expect(await trpcCodeOf(other.caller.paymentGateways.setEnabled({ provider: "razorpay", enabled: false }))).toBe(
      "NOT_FOUND",
    );
    expect(await trpcCodeOf(other.caller.paymentGateways.delete({ provider: "razorpay" }))).toBe("NOT_FOUND");

    // Delete.
    await revenue.caller.paymentGateways.delete({ provider: "razorpay" });
    expect(await revenue.caller.paymentGateways.list()).toEqual([]);
    expect(await trpcCodeOf(revenue.caller.paymentGateways.delete({ provider: "razorpay" }))).toBe("NOT_FOUND");
  });

  it("refuses unknown providers and malformed keys", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    expect(
      await trpcCodeOf(
        owner.caller.paymentGateways.save({
          provider: "paypal" as "razorpay",
          environment: "live",
          appKey: "pk_1234",
          secret: "abcdefgh",
        }),
      ),
    ).toBe("BAD_REQUEST");
    // Stripe's keys say their mode: test keys are the sandbox's.
    expect(
      await trpcCodeOf(
        owner.caller.paymentGateways.save({
          provider: "stripe",
          environment: "live",
          appKey: "pk_test_51Abc",
          secret: "sk_test_51Abc",
        }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await owner.caller.paymentGateways.save({
        provider: "stripe",
        environment: "sandbox",
        appKey: "pk_test_51Abc",
        secret: "sk_test_51Abc",
        webhookSecret: "whsec_51Abc",
      }),
    ).toMatchObject({
      provider: "stripe",
      environment: "sandbox",
      appKey: "pk_test_51Abc",
      paymentTypes: ["stripe", "stripe_recurring"],
      stripeTax: false,
      stripeTaxInclusive: false,
    });
    // Stripe Tax: Stripe's only; on, it stays on through a save that does not mention it.
    expect(
      await trpcCodeOf(
        owner.caller.paymentGateways.save({
          provider: "razorpay",
          environment: "sandbox",
          appKey: "rzp_test_AAAA1111",
          secret: "abcdefgh",
          stripeTax: true,
        }),
      ),
    ).toBe("BAD_REQUEST");
    const stripeTax = { provider: "stripe", environment: "sandbox", appKey: "pk_test_51Abc" } as const;
    expect(
      await owner.caller.paymentGateways.save({ ...stripeTax, stripeTax: true, stripeTaxInclusive: true }),
    ).toMatchObject({ stripeTax: true, stripeTaxInclusive: true });
    expect(await owner.caller.paymentGateways.save(stripeTax)).toMatchObject({
      stripeTax: true,
      stripeTaxInclusive: true,
    });
    expect((await gatewayCredentialsFor(db, owner.account.id, "stripe"))?.stripe_tax).toEqual({
      enabled: true,
      inclusive: true,
    });
    expect(await owner.caller.paymentGateways.save({ ...stripeTax, stripeTax: false })).toMatchObject({
      stripeTax: false,
    });
    expect(
      await trpcCodeOf(
        owner.caller.paymentGateways.save({
          provider: "razorpay",
          environment: "live",
          appKey: "has space",
          secret: "abcdefgh",
        }),
      ),
    ).toBe("BAD_REQUEST");
  });
});
