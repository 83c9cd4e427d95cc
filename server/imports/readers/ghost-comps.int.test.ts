/**
 * Ghost's complimentary members get access, on PGlite and PostgreSQL: `complimentary_plan` true
 * or `status` comped becomes a complimentary subscription on the plan the tier maps to (the plan
 * titled as the tier, or the `--plans` mapping file), quietly, once; a tier that maps to nothing
 * is said in the report; paid members are told to come with their gateway subscriptions.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { importCommand } from "@/scripts/import/cli";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { sweepSubscriptionLifecycle } from "@/server/subscriptions/recurring/lifecycle";
import { grantsAccess } from "@/server/subscriptions/subscribers/subscription-state";
import { importAccount, importFixture, recurringPlans } from "@/server/testing/imports";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";

const NOW = new Date("2026-11-26T12:00:00Z");
const now = () => NOW;

const MEMBERS = [
  "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers,status",
  "6a01,cora@example.com,Cora,,false,true,,2024-05-01T00:00:00Z,,,Premium,comped",
  "6a02,gus@example.com,Gus,,false,false,,2024-06-01T00:00:00Z,,,Gold,comped",
  "6a03,pia@example.com,Pia,,true,false,cus_PIA,2024-07-01T00:00:00Z,,,Premium,paid",
  "6a04,fay@example.com,Fay,,true,false,,2024-08-01T00:00:00Z,,,,free",
].join("\n");

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "ghost-comps-"));
  await fs.writeFile(path.join(dir, "members.csv"), MEMBERS);
});
afterAll(async () => fs.rm(dir, { recursive: true }));

async function setup() {
  const db = await getDb();
  const account = await importAccount(db);
  const plans = await recurringPlans(db, account.id, [
    ["Premium", "MONTHS", 900],
    ["Gold plus", "MONTHS", 900],
  ]);
  return { db, account, premium: plans.get("Premium")!, gold: plans.get("Gold plus")! };
}

const compOf = (db: Db, accountId: number, email: string) =>
  db.subscription.findFirst({ where: { accountId, member: { email } } });

describe("Ghost's complimentary members", () => {
  it("get a complimentary subscription on the plan titled as their tier, quietly and once", async () => {
    const { db, account, premium } = await setup();
    const file = path.join(dir, "members.csv");
    const report = await importFixture(db, account.id, "ghost-members", file, { now });
    expect(report.kinds.subscription).toEqual({ create: 1, update: 0, skip: 0, refuse: 0 });
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'line 3 (gus@example.com): complimentary access not given: no plan of the account is titled "Gold": give the plan mapping (--plans MAPPING.json, or on the Import page) or name a plan so',
        expect.stringMatching(/^paid members' access comes from their gateway subscriptions, .*\(first: line 4\)$/),
      ]),
    );
    const cora = await compOf(db, account.id, "cora@example.com");
    expect(cora).toMatchObject({
      planId: premium.id,
      status: "ACTIVE",
      paymentType: "sponsored",
      paymentAmountCents: 0,
      recurring: false,
      startTimestamp: new Date("2024-05-01T00:00:00Z"),
      endTimestamp: null,
      createdBy: "import",
    });
    expect(grantsAccess(cora!, new Date("2030-01-01T00:00:00Z"))).toBe(true);
    for (const email of ["gus@example.com", "pia@example.com", "fay@example.com"])
      expect(await compOf(db, account.id, email)).toBeNull();

    // Quiet, now and as time passes; a second run changes nothing.
    await sweepSubscriptionLifecycle(db, new Date("2027-06-01T00:00:00Z"));
    await runJobsNow(db, testJobDeps({ clock: () => new Date("2027-06-01T00:00:00Z") }));
    expect(await db.outgoingEmail.count({ where: { accountId: account.id } })).toBe(0);
    const again = await importFixture(db, account.id, "ghost-members", file, { now });
    expect(again.kinds.subscription!.create).toBe(0);
    expect(await db.subscription.count({ where: { accountId: account.id } })).toBe(1);
  });

  it("take their tier through the plan mapping file given with --plans", async () => {
    const { db, account, gold } = await setup();
    const mapping = path.join(dir, "plans.json");
    await fs.writeFile(mapping, JSON.stringify({ plans: { Premium: "Premium", Gold: gold.id } }));
    const io = { out: () => undefined, err: () => undefined };
    const argv = ["--from", "ghost-members", path.join(dir, "members.csv"), "--account", account.slug];
    const result = await importCommand(db, [...argv, "--plans", mapping], io);
    expect(result.code).toBe(0);
    expect(result.report!.kinds.subscription!.create).toBe(2);
    expect(await compOf(db, account.id, "gus@example.com")).toMatchObject({
      planId: gold.id,
      paymentType: "sponsored",
    });
  });
});
