/**
 * The dashboard's "Check connection" over HTTP (POST /api/trpc/paymentGateways.check), against
 * the fake Stripe server: the saved keys' problems in words as JSON, bad input as a clear 4xx
 * JSON error (never a 500), other roles refused, and the secret in no answer.
 */
import superjson from "superjson";
import { describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { createTestStaff } from "@/server/testing/staff";
import { stripeStandIn } from "@/server/testing/stripe-checkout";

import { ADAPTER_PERMISSIONS } from "../../testing/fake-stripe-keys";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST } = await import("@/app/api/trpc/[trpc]/route");
const stripeAccount = stripeStandIn();

type CheckAnswer = {
  result?: { data?: { json?: { ok: boolean; mode: string | null; problems: { code: string; message: string }[] } } };
  error?: {
    json?: {
      message: string;
      data?: { httpStatus: number; appError?: { code: string; details?: { field: string; issue: string }[] } };
    };
  };
};

async function check(input: unknown) {
  const res = await POST(
    new Request("http://localhost/api/trpc/paymentGateways.check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(superjson.serialize(input)),
    }),
  );
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as CheckAnswer };
}

describe("POST /api/trpc/paymentGateways.check", () => {
  it("answers the saved Stripe keys' check in words, and each failure the owner can fix", async () => {
    const db = await getDb();
    const { fake, accountId } = await stripeAccount(db);
    const owner = await createTestStaff(db, { roles: ["REVENUE"], account: accountId });
    session.current = owner.session;

    const good = await check({ provider: "stripe" });
    expect(good.status, good.text).toBe(200);
    expect(good.body.result?.data?.json).toMatchObject({ ok: true, mode: "test", problems: [] });
    expect(good.text).not.toContain(fake.secretKey);
    expect(good.text).not.toContain(fake.webhookSecret);

    // A restricted key without Customers: Write, and no webhook secret.
    const restricted = fake.addKey({
      permissions: ADAPTER_PERMISSIONS.filter((p) => p !== "customer_write"),
    });
    await owner.caller.paymentGateways.save({
      provider: "stripe",
      environment: "sandbox",
      appKey: fake.publishableKey,
      secret: restricted,
      webhookSecret: null,
    });
    const bad = await check({ provider: "stripe" });
    expect(bad.status).toBe(200);
    expect(bad.body.result?.data?.json?.ok).toBe(false);
    expect(bad.body.result?.data?.json?.problems.map((p) => p.code)).toEqual([
      "permission_missing",
      "webhook_secret_missing",
    ]);
    expect(bad.text).toContain("Customers: Write");
    expect(bad.text).not.toContain(restricted);

    // A key Stripe no longer knows (rolled): 200 with the problem, not an error of ours.
    fake.revokeKey(restricted);
    const rolled = await check({ provider: "stripe" });
    expect(rolled.body.result?.data?.json?.problems.map((p) => p.code)).toEqual([
      "secret_rejected",
      "webhook_secret_missing",
    ]);
    expect(rolled.text).not.toContain(restricted.slice(8));

    // Disabled keys are still checked (before offering them).
    await owner.caller.paymentGateways.setEnabled({ provider: "stripe", enabled: false });
    expect((await check({ provider: "stripe" })).status).toBe(200);
  });

  it("answers bad input, missing keys, gateways without a check and other roles with clear 4xx JSON", async () => {
    const db = await getDb();
    const owner = await createTestStaff(db, { roles: ["OWNER"] });
    session.current = owner.session;

    const unknown = await check({ provider: "paypal" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.json?.data?.appError?.details?.[0]?.field).toBe("provider");
    expect((await check({})).status).toBe(400);
    expect((await check("not json at all")).status).toBe(400);

    const none = await check({ provider: "stripe" });
    expect(none.status).toBe(404);
    expect(none.body.error?.json?.message).toBe("Payment gateway not found.");

    await owner.caller.paymentGateways.save({
      provider: "razorpay",
      environment: "sandbox",
      appKey: "rzp_test_AAAA1111",
      secret: "rzp-key-secret-0123456789",
    });
    const razorpay = await check({ provider: "razorpay" });
    expect(razorpay.status).toBe(422);
    expect(razorpay.body.error?.json?.message).toBe("Razorpay has no connection check.");

    session.current = (await createTestStaff(db, { roles: ["EDITOR"], account: owner.account.id })).session;
    expect((await check({ provider: "stripe" })).status).toBe(403);
    for (const answer of [unknown, none, razorpay]) expect(answer.text).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
  });
});
