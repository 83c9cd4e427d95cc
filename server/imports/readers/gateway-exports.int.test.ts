/**
 * The gateways' own subscription exports imported as exported, on PGlite and PostgreSQL
 * (fixtures of the project's own reproducing the column sets of Stripe's Dashboard export and
 * Razorpay's subscriptions report): the format told from the header, the columns by name, the
 * start date read, the reader found by the gateway's customer id (the identity Ghost's members
 * import gave), statuses as each gateway writes them, one line for the columns not read; and
 * `--as-of`, the instant the file was exported, deciding statuses and access as they were then.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { importCommand } from "@/scripts/import/cli";
import { systemActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { runImport, type RunImportArgs } from "@/server/imports/runner";
import { FIXTURES, importAccount, importFixture, recurringPlans } from "@/server/testing/imports";

import { subscriptionsSource } from "./subscriptions";

const NOW = new Date("2026-11-26T12:00:00Z");
const now = () => NOW;
const PLANS = path.join(FIXTURES, "gateway-plans.json");

async function setup(slug?: string) {
  const db = await getDb();
  const account = await importAccount(db, slug);
  await importFixture(db, account.id, "ghost-members", "ghost-members.csv", { now });
  await recurringPlans(db, account.id);
  return { db, accountId: account.id, slug: account.slug };
}

function importExport(db: Db, accountId: number, file: string, over: Partial<RunImportArgs> = {}) {
  return runImport(db, {
    source: subscriptionsSource({ plans: PLANS }),
    file: { path: path.join(FIXTURES, file), name: file },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    now,
    ...over,
  });
}

const byToken = (db: Db, accountId: number, paymentToken: string) =>
  db.subscription.findFirstOrThrow({ where: { accountId, paymentToken }, include: { member: true } });

describe("a gateway's subscriptions export, as exported", () => {
  it("reads Stripe's Dashboard export by its column names", async () => {
    const { db, accountId } = await setup();
    const report = await importExport(db, accountId, "stripe-subscriptions.csv");
    expect(report.kinds.subscription).toEqual({ create: 6, update: 0, skip: 0, refuse: 1 });
    expect(report.lines.refuse.map((l) => `${l.label}: ${l.reason}`)).toEqual([
      "line 8 (incomplete@example.com): its first payment never went through (incomplete): nothing was paid",
    ]);
    expect(report.notes).toContain("the file is read as Stripe's subscriptions export, its columns by name");
    // The columns it does not read: one line.
    expect(report.problems.map((p) => p.where)).toEqual(["line 1"]);
    expect(report.problems[0]!.message).toBe(
      '15 columns "customer description", "product", "interval", "created (utc)", "start (utc)", "current period start (utc)", "trial start (utc)", "trial end (utc)", "application fee percent", "coupon", "tax percent", "canceled at (utc)", "ended at (utc)", "cancellation reason", "source (metadata)" are not read by this import: ignored',
    );

    // Bob: the Ghost member (cus_BOB1), his start date, "9" read as 9.00 USD.
    const bob = await byToken(db, accountId, "sub_S1BOB");
    expect(bob).toMatchObject({
      status: "ACTIVE",
      paymentType: "stripe_recurring",
      startTimestamp: new Date("2026-10-15T00:00:00Z"),
      endTimestamp: new Date("2027-01-15T00:00:00Z"),
      paymentAmountCents: 900,
      paymentAmountCurrency: "USD",
      planName: "Gold monthly",
    });
    expect(bob.member.email).toBe("bob@example.net");
    // Dave has no e-mail in the export: found by his Stripe customer id, the Ghost member's identity.
    const dave = await byToken(db, accountId, "sub_S1DAVE");
    expect(dave.member.email).toBe("dave@example.org");
    expect(dave).toMatchObject({ status: "ACTIVE", trialEndsAt: new Date("2026-12-04T00:00:00Z") });
    // Cancel At Period End: cancelled, access until its end.
    expect(await byToken(db, accountId, "sub_S1ZOE")).toMatchObject({
      status: "CANCELLED",
      cancelledAt: NOW,
      paymentAmountCents: 9000,
      paymentAmountCurrency: "EUR",
    });
    // Quantity 2 × 4.50 EUR; past_due: active until its end.
    expect(await byToken(db, accountId, "sub_S1PAIR")).toMatchObject({ status: "ACTIVE", paymentAmountCents: 900 });
    for (const token of ["sub_S1OLD", "sub_S1UNPAID"])
      expect(await byToken(db, accountId, token)).toMatchObject({ status: "EXPIRED" });
    expect(await db.outgoingEmail.count({ where: { accountId } })).toBe(0);
  });

  it("reads Razorpay's subscriptions report: Unix times, the plan's price, Razorpay's statuses", async () => {
    const { db, accountId } = await setup();
    const report = await importExport(db, accountId, "razorpay-subscriptions.csv");
    expect(report.kinds.subscription).toEqual({ create: 4, update: 0, skip: 0, refuse: 1 });
    expect(report.lines.refuse[0]!.reason).toBe(
      "its first charge is still to come (authenticated): import it once it is active",
    );
    const asha = await byToken(db, accountId, "sub_R1ASHA");
    expect(asha).toMatchObject({
      status: "ACTIVE",
      paymentType: "razorpay_recurring",
      startTimestamp: new Date("2026-09-30T00:00:00Z"),
      endTimestamp: new Date("2026-11-30T00:00:00Z"),
      nextPaymentDueDate: new Date("2026-11-30T00:00:00Z"),
      paymentAmountCents: 900,
      paymentAmountCurrency: "USD",
    });
    expect(asha.member.email).toBe("asha@example.in");
    const identities = await db.memberIdentity.findMany({ where: { memberId: asha.memberId } });
    expect(identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual(["razorpay:cust_R1ASHA"]);
    expect(await byToken(db, accountId, "sub_R1RAVI")).toMatchObject({ status: "ACTIVE" });
    expect(await byToken(db, accountId, "sub_R1HALT")).toMatchObject({ status: "EXPIRED" });
    expect(await byToken(db, accountId, "sub_R1MIRA")).toMatchObject({ status: "CANCELLED", paymentAmountCents: 1800 });
  });

  it("refuses a file whose header is neither the import's nor a gateway's, naming what it lacks", async () => {
    const { db, accountId } = await setup();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "gateway-export-"));
    const file = path.join(dir, "other.csv");
    await fs.writeFile(file, "Subscription,Customer,Ends\nsub_1,cus_1,2027-01-01\n");
    await expect(
      runImport(db, {
        source: subscriptionsSource({ plans: PLANS }),
        file: { path: file, name: "other.csv" },
        accountId,
        actor: systemActor(accountId, "import"),
        dryRun: false,
        now,
      }),
    ).rejects.toThrow(
      'A subscriptions CSV: the header has no column "email" or "identity" (it has "subscription", "customer", "ends").',
    );
    await fs.rm(dir, { recursive: true });
  });
});

describe("--as-of", () => {
  it("imports each subscription as it was when the file was exported", async () => {
    const { db, accountId, slug } = await setup();
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const file = path.join(FIXTURES, "razorpay-subscriptions.csv");
    const args = ["--from", "subscriptions", file, "--account", slug, "--plans", PLANS];
    // Exported on 25 September.
    const result = await importCommand(db, [...args, "--as-of", "2026-09-25T00:00:00Z"], io);
    expect(result.code).toBe(0);
    expect(out[0]).toBe("As of 2026-09-25T00:00:00.000Z (--as-of): statuses and access as they were then.");
    // Halted (the export says so): over. Mira: cancelled at the export, her period running.
    expect(await byToken(db, accountId, "sub_R1HALT")).toMatchObject({ status: "EXPIRED" });
    expect(await byToken(db, accountId, "sub_R1MIRA")).toMatchObject({
      status: "CANCELLED",
      cancelledAt: new Date("2026-09-25T00:00:00Z"),
    });

    for (const [asOf, message] of [
      [
        "2026-09-25",
        '--as-of takes an instant in ISO 8601 with its zone, e.g. 2026-11-01T00:00:00Z (not "2026-09-25").',
      ],
      [
        "2999-01-01T00:00:00Z",
        "--as-of 2999-01-01T00:00:00Z is in the future: give the instant the file was exported.",
      ],
    ] as const) {
      out.length = 0;
      expect((await importCommand(db, [...args, "--as-of", asOf], io)).code).toBe(2);
      expect(out[0]).toBe(message);
    }
    out.length = 0;
    const wxr = ["--from", "wxr", file, "--account", slug, "--as-of", "2026-09-25T00:00:00Z"];
    expect((await importCommand(db, wxr, io)).code).toBe(2);
    expect(out[0]).toBe("--as-of is for the readers' files: --from subscriptions, ghost-members, newsletter-csv.");
  });

  it("a cancelled row whose end is after the export but before today: cancelled as of the export, expired today", async () => {
    const { db, accountId } = await setup();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "as-of-"));
    const file = path.join(dir, "subs.csv");
    await fs.writeFile(
      file,
      "email,plan,status,current_period_end,amount,currency,started_at,gateway,gateway_subscription_id\n" +
        "nell@example.com,price_GOLD_M,cancelled,2026-11-01T00:00:00Z,9.00,USD,2026-10-01T00:00:00Z,stripe,sub_NELL\n",
    );
    const run = (slugOver: Partial<RunImportArgs>) =>
      runImport(db, {
        source: subscriptionsSource({ plans: PLANS }),
        file: { path: file, name: "subs.csv" },
        accountId,
        actor: systemActor(accountId, "import"),
        dryRun: true,
        now,
        ...slugOver,
      });
    const today = await run({});
    expect(today.lines.create[0]!.reason).toMatch(/^expired "Gold monthly"/);
    const exported = await run({ asOf: new Date("2026-10-15T00:00:00Z") });
    expect(exported.lines.create[0]!.reason).toMatch(/^cancelled "Gold monthly"/);
    await fs.rm(dir, { recursive: true });
  });
});
