/**
 * A subscriptions CSV imported after the Disqus comments and Ghost's members, on PGlite and
 * PostgreSQL: each subscription on the reader's one member (Bob under three spellings), field by
 * field; the access decision saying yes until the period end and no after it (the clock
 * injected); what is refused; the dry run without a mapping listing the old plans and changing
 * nothing; a second run and a killed run; and nothing said to readers, webhooks or gateways.
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
import { decideAccess } from "@/server/subscriptions/access/access";
import { FIXTURES, importAccount, importFixture, recurringPlans, tableCounts } from "@/server/testing/imports";
import { insertStory } from "@/server/testing/publishing-factories";

import { ImportAborted } from "../types";
import { subscriptionsSource } from "./subscriptions";

const NOW = new Date("2026-11-26T12:00:00Z");
const now = () => NOW;
const FILE = path.join(FIXTURES, "subscriptions.csv");
const PLANS = path.join(FIXTURES, "subscriptions-plans.json");

/** The account with the Disqus commenters and the Ghost members, and the two plans the mapping names. */
async function setup(slug?: string) {
  const db = await getDb();
  const account = await importAccount(db, slug);
  await importFixture(db, account.id, "disqus", "disqus-sample.xml", { now });
  await importFixture(db, account.id, "ghost-members", "ghost-members.csv", { now });
  const plans = await recurringPlans(db, account.id);
  const monthly = plans.get("Gold monthly")!;
  const yearly = plans.get("Gold yearly")!;
  return { db, account, monthly, yearly };
}

function importSubscriptions(db: Db, accountId: number, over: Partial<RunImportArgs> & { plans?: string | null } = {}) {
  const { plans, ...rest } = over;
  return runImport(db, {
    source: subscriptionsSource({ plans: plans === null ? undefined : (plans ?? PLANS) }),
    file: { path: FILE, name: "subscriptions.csv" },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    now,
    ...rest,
  });
}

const memberId = async (db: Db, accountId: number, email: string) =>
  (await db.member.findUniqueOrThrow({ where: { accountId_email: { accountId, email } } })).id;

/** The subscription made for a gateway subscription id. */
const byToken = (db: Db, accountId: number, paymentToken: string) =>
  db.subscription.findFirstOrThrow({ where: { accountId, paymentToken } });

/** Subscriptions of an account by reader and plan, ids left out. */
async function subscriptionsOf(db: Db, accountId: number) {
  const rows = await db.subscription.findMany({
    where: { accountId },
    include: { member: { select: { email: true } } },
  });
  return rows
    .map(
      ({ id: _id, accountId: _a, memberId: _m, planId: _p, groupId: _g, createdAt: _c, updatedAt: _u, ...rest }) =>
        rest,
    )
    .sort((a, b) => (a.member.email < b.member.email ? -1 : 1));
}

describe("importing a subscriptions CSV", () => {
  it("gives each subscription to the reader's one member, field by field, quietly", async () => {
    const { db, account, monthly, yearly } = await setup();
    const bob = await memberId(db, account.id, "bob@example.net");
    const bobComments = await db.comment.count({ where: { authorId: bob } });
    expect(bobComments).toBeGreaterThan(0);
    const report = await importSubscriptions(db, account.id);

    expect(report.status).toBe("completed");
    expect(report.kinds).toEqual({
      subscription: { create: 6, update: 0, skip: 0, refuse: 5 },
      member: { create: 2, update: 0, skip: 0, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => `${l.label}: ${l.reason}`)).toEqual([
      `line 6 (ivy@example.com): unknown plan "platinum": it is not in the plan mapping ${PLANS}`,
      'line 7 (jack@example.com): its current_period_end "2027-13-45" is not a date',
      'line 8 (kim@example.com): its amount "9" is not an amount of USD written with its 2 decimal(s) (e.g. 9.00): refused rather than guessed',
      "line 9 (Bob@Example.net): it repeats line 2's subscription (stripe:sub_BOB1): only line 2 is imported",
      `line 10 (lou@example.com): its plan "legacy" is left unmapped (null) in ${PLANS}`,
    ]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'e-mail "bob@EXAMPLE.net" is read as bob@example.net: one reader whatever the spelling',
        "line 5 (henry@example.com): past_due is imported active until its period end, as the gateway retries the charge",
      ]),
    );

    // Bob: a commenter (Disqus), a Ghost member (Bob@Example.NET) and a subscriber (" bob@EXAMPLE.net "): one member.
    expect(await db.member.count({ where: { accountId: account.id, email: "bob@example.net" } })).toBe(1);
    const bobs = await byToken(db, account.id, "sub_BOB1");
    expect(bobs).toMatchObject({
      memberId: bob,
      planId: monthly.id,
      groupId: monthly.groupId,
      subscriptionType: "STANDARD",
      planName: "Gold monthly",
      groupName: "Digital",
      durationLength: 1,
      durationUnit: "MONTHS",
      planAmountCents: 900,
      planAmountCurrency: "USD",
      status: "ACTIVE",
      startTimestamp: new Date("2026-10-15T00:00:00Z"),
      endTimestamp: new Date("2027-01-15T00:00:00Z"),
      nextPaymentDueDate: new Date("2027-01-15T00:00:00Z"),
      cancelledAt: null,
      trialEndsAt: null,
      graceEndsAt: null,
      renewalReminderSentAt: null,
      recurring: true,
      paymentType: "stripe_recurring",
      paymentToken: "sub_BOB1",
      paymentAmountCents: 900,
      paymentAmountCurrency: "USD",
      createdBy: "import",
      createdAt: new Date("2026-10-15T00:00:00Z"),
      metadata: {
        imported_from: {
          source: "subscriptions",
          plan: "gold-monthly",
          status: "active",
          gateway: "stripe",
          gateway_customer_id: "cus_BOB1",
          gateway_subscription_id: "sub_BOB1",
        },
      },
    });
    expect(await db.comment.count({ where: { authorId: bob } })).toBe(bobComments);

    // Zoë cancelled inside her paid year: cancelled, no next payment, her end kept.
    expect(await byToken(db, account.id, "sub_ZOE")).toMatchObject({
      memberId: await memberId(db, account.id, "zoe@example.fr"),
      planId: yearly.id,
      status: "CANCELLED",
      cancelledAt: NOW,
      endTimestamp: new Date("2027-03-01T00:00:00Z"),
      nextPaymentDueDate: null,
      paymentAmountCents: 9000,
      paymentAmountCurrency: "EUR",
    });
    // Dave named by his Ghost identity only: the Ghost member; in his trial until its end.
    expect(await byToken(db, account.id, "sub_DAVE")).toMatchObject({
      memberId: await memberId(db, account.id, "dave@example.org"),
      status: "ACTIVE",
      trialEndsAt: new Date("2026-12-10T00:00:00Z"),
      nextPaymentDueDate: new Date("2026-12-10T00:00:00Z"),
      renewalReminderSentAt: null,
    });
    // Henry (past_due, a new reader): active until the end, 4 days away; its reminder's moment
    // had come before the import, so it counts as sent (no mail right after the import).
    const henry = await db.member.findUniqueOrThrow({
      where: { accountId_email: { accountId: account.id, email: "henry@example.com" } },
      include: { identities: true },
    });
    expect(henry).toMatchObject({ name: "Henry", source: "import", emailVerified: false });
    expect(henry.identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual(["stripe:cus_HEN"]);
    expect(await byToken(db, account.id, "sub_HEN")).toMatchObject({
      memberId: henry.id,
      status: "ACTIVE",
      endTimestamp: new Date("2026-11-30T00:00:00Z"),
      renewalReminderSentAt: NOW,
    });
    // Carol's complimentary year, and an old cancellation whose period is over.
    const carol = await db.subscription.findFirstOrThrow({
      where: { accountId: account.id, member: { email: "carol@example.com" } },
    });
    expect(carol).toMatchObject({
      paymentType: "sponsored",
      paymentToken: null,
      paymentAmountCents: 0,
      status: "ACTIVE",
    });
    const old = await db.subscription.findFirstOrThrow({
      where: { accountId: account.id, member: { email: "old@example.com" } },
    });
    expect(old).toMatchObject({ status: "EXPIRED", endTimestamp: new Date("2026-01-01T00:00:00Z") });
    for (const email of ["ivy@example.com", "jack@example.com", "kim@example.com", "lou@example.com"]) {
      expect(await db.member.count({ where: { accountId: account.id, email } })).toBe(0);
    }

    // Quiet: no payment, job, webhook event or e-mail.
    expect(await db.payment.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.job.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.webhookEvent.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.outgoingEmail.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("keeps a migrated subscriber's access until the period end, and not after", async () => {
    const { db, account } = await setup();
    await importSubscriptions(db, account.id);
    const story = await insertStory(db, account.id, { access: "subscription" });
    const access = async (email: string, at: string) =>
      decideAccess(db, {
        accountId: account.id,
        storyId: story.id,
        reader: { memberId: await memberId(db, account.id, email), readerId: null },
        disableMeter: true,
        now: new Date(at),
        meter: "check",
      });

    const bob = await byToken(db, account.id, "sub_BOB1");
    expect(await access("bob@example.net", "2026-11-26T12:00:00Z")).toMatchObject({
      granted: true,
      grantReason: "SUBSCRIBER",
      why: `subscription:${bob.id}`,
    });
    expect(await access("bob@example.net", "2027-01-14T23:59:59Z")).toMatchObject({ granted: true });
    expect(await access("bob@example.net", "2027-01-15T00:00:00Z")).toMatchObject({
      granted: false,
      why: "hard_paywall",
    });
    // Cancelled inside the paid period: access until its end, none after.
    expect(await access("zoe@example.fr", "2027-02-28T23:59:59Z")).toMatchObject({ granted: true });
    expect(await access("zoe@example.fr", "2027-03-01T00:00:01Z")).toMatchObject({ granted: false });
    expect(await access("dave@example.org", "2026-12-09T00:00:00Z")).toMatchObject({ granted: true });
    expect(await access("old@example.com", "2026-11-26T12:00:00Z")).toMatchObject({ granted: false });
    // A reader the file refused has nothing.
    expect(await access("gil@example.com", "2026-11-26T12:00:00Z")).toMatchObject({ granted: false });
  });

  it("lists the old plans in a dry run without a mapping, writes the template, and changes nothing", async () => {
    const { db, account, monthly } = await setup();
    const before = await tableCounts(db);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "plans-"));
    const template = path.join(dir, "plans.json");
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => out.push(t) };
    const slug = (await db.account.findUniqueOrThrow({ where: { id: account.id } })).slug;
    const result = await importCommand(
      db,
      ["--from", "subscriptions", FILE, "--account", slug, "--dry-run", "--plans-template", template],
      io,
    );
    expect(result.code).toBe(0);
    expect(await tableCounts(db)).toEqual(before);
    expect(result.report!.kinds.subscription).toEqual({ create: 0, update: 0, skip: 0, refuse: 11 });
    expect(result.report!.lines.refuse[0]!.reason).toBe(
      'its plan "gold-monthly" is not mapped yet: give the plan mapping (--plans MAPPING.json, or on the Import page)',
    );
    expect(out.join("\n")).toContain(
      'Old plans in the file (4): "gold-monthly" (7 rows), "gold-yearly" (2 rows), "platinum" (1 row), "legacy" (1 row)',
    );
    const written = JSON.parse(await fs.readFile(template, "utf8")) as {
      plans: Record<string, null>;
      available: Record<string, string>;
    };
    expect(written.plans).toEqual({ "gold-monthly": null, "gold-yearly": null, legacy: null, platinum: null });
    expect(written.available[String(monthly.id)]).toBe("Gold monthly (Digital; 1 month, recurring)");

    // A real run needs the mapping.
    const refused = await importCommand(db, ["--from", "subscriptions", FILE, "--account", slug], io);
    expect(refused.code).toBe(2);
    expect(out).toContain(
      "A subscriptions import needs the plan mapping: --plans MAPPING.json (a --dry-run without it writes a template with --plans-template OUT.json).",
    );
    expect(await tableCounts(db)).toEqual(before);
    await fs.rm(dir, { recursive: true });
  });

  it("plans in a dry run with the mapping what the run does, and changes nothing when run again", async () => {
    const { db, account } = await setup();
    const before = await tableCounts(db);
    const dry = await importSubscriptions(db, account.id, { dryRun: true });
    expect(await tableCounts(db)).toEqual(before);
    const real = await importSubscriptions(db, account.id);
    expect(dry.kinds).toEqual(real.kinds);
    expect(dry.lines.refuse).toEqual(real.lines.refuse);

    const snapshot = await subscriptionsOf(db, account.id);
    const counts = await tableCounts(db);
    const again = await importSubscriptions(db, account.id);
    expect(await tableCounts(db)).toEqual({
      ...counts,
      import_runs: counts.import_runs! + 1,
      audit_logs: counts.audit_logs! + 2,
    });
    expect(await subscriptionsOf(db, account.id)).toEqual(snapshot);
    expect(again.kinds.subscription).toEqual({ create: 0, update: 0, skip: 6, refuse: 5 });
    expect(again.lines.skip.every((l) => l.reason.startsWith("imported before (subscription #"))).toBe(true);
  });

  it("resumes a run killed mid-way and ends as an uninterrupted run does", async () => {
    const { db, account: whole } = await setup("subs-whole");
    const { account: killed } = await setup("subs-killed");
    await importSubscriptions(db, whole.id, { batchSize: 3 });
    await expect(
      importSubscriptions(db, killed.id, {
        batchSize: 3,
        afterItem: (applied) => {
          if (applied === 4) throw new ImportAborted("killed");
        },
      }),
    ).rejects.toThrow(ImportAborted);
    const partial = await db.subscription.count({ where: { accountId: killed.id } });
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(6);
    const resumed = await importSubscriptions(db, killed.id, { batchSize: 3 });
    expect(resumed.status).toBe("completed");
    expect(await subscriptionsOf(db, killed.id)).toEqual(await subscriptionsOf(db, whole.id));
  });
});
