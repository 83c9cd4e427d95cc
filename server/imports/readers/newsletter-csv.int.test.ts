/**
 * A newsletter list CSV imported (`--from newsletter-csv`) on PGlite and PostgreSQL: the dry run
 * changes nothing and plans the run; subscriptions ACTIVE with the file's consent dates and the
 * source "import:csv", on members found by e-mail or created; bad rows refused or skipped with
 * their reasons (bad e-mail, unknown newsletter, duplicate row, suppressed address, no or
 * ambiguous consent date, unsubscribed); a second run changing nothing; a killed run resumed; the
 * default newsletter from the command line.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import {
  expectDryRunPlansTheRun,
  expectResumedLikeWhole,
  expectRunAgainChangesNothing,
  FIXTURES,
  importAccount,
  importFixture,
} from "@/server/testing/imports";
import { insertTestNewsletter } from "@/server/testing/newsletters";

import { importCommand } from "../../../scripts/import/cli";
import { NEWSLETTER_CSV_CONSENT_SOURCE } from "./newsletter-csv";

const NOW = new Date("2026-11-26T12:00:00Z");
const now = () => NOW;
const FILE = "newsletter-list.csv";

/** An account with the newsletters "briefing" and "long-read", Ada a member already, one address suppressed. */
async function setup() {
  const db = await getDb();
  const account = await importAccount(db);
  await insertTestNewsletter(db, account.id, { slug: "briefing", name: "Briefing" });
  await insertTestNewsletter(db, account.id, { slug: "long-read", name: "The long read" });
  const ada = await db.member.create({
    data: { accountId: account.id, name: "Ada (signed up)", email: "ada@example.com", passwordHash: "-" },
  });
  await db.emailSuppression.create({
    data: { accountId: account.id, email: "suppressed@example.com", reason: "bounce" },
  });
  return { db, account, ada };
}

/** The account's newsletter subscriptions, readable (ids left out). */
async function subscriptions(db: Db, accountId: number) {
  const rows = await db.newsletterSubscription.findMany({
    where: { accountId },
    include: { newsletter: { select: { slug: true } }, member: { select: { email: true, name: true, source: true } } },
  });
  return rows
    .map(
      (s) =>
        `${s.newsletter.slug} ${s.member.email} (${s.member.name}, ${s.member.source}) ${s.status} ${s.consentedAt.toISOString()} ${s.consentSource}`,
    )
    .sort();
}

describe("importing a newsletter list", () => {
  it("subscribes each row's reader with the file's consent, and says why the others are not", async () => {
    const { db, account, ada } = await setup();
    const { dry, real } = await expectDryRunPlansTheRun(db, {
      accountId: account.id,
      source: "newsletter-csv",
      file: path.join(FIXTURES, FILE),
      over: { now },
    });
    expect(dry.kinds).toEqual({
      "newsletter-subscription": { create: 4, update: 0, skip: 2, refuse: 6 },
      member: { create: 2, update: 2, skip: 0, refuse: 0 },
    });
    expect(real.lines.refuse.map((l) => `${l.label}: ${l.reason}`)).toEqual([
      expect.stringMatching(
        /^line 4 \(carol@example\.com\): it names no newsletter and the account has 2: .*, or have whoever runs the server import it with a default newsletter$/,
      ),
      'line 6 (not-an-email, briefing): bad e-mail: "not-an-email" is not an address',
      expect.stringMatching(/^line 7 \(eve@example\.com, sports\): unknown newsletter "sports"/),
      "line 8 (ada@example.com, briefing): duplicate row: line 2 has ada@example.com for this newsletter too; only line 2 is imported",
      expect.stringMatching(/^line 10 \(frank@example\.com, briefing\): it has no consent date/),
      expect.stringMatching(
        /^line 11 \(gina@example\.com, briefing\): its consent date "05\/03\/2024" could be day\/month/,
      ),
    ]);
    expect(real.lines.skip.map((l) => `${l.label}: ${l.reason}`)).toEqual([
      expect.stringMatching(/^line 9 \(suppressed@example\.com, briefing\): suppressed address/),
      'line 12 (hank@example.com, briefing): its status is "unsubscribed" in the old system: not subscribed',
    ]);
    expect(real.notes).toEqual(
      expect.arrayContaining([
        'e-mail "Bob@Example.net" is read as bob@example.net: one reader whatever the spelling',
        expect.stringMatching(/the "source" column is not kept/),
      ]),
    );

    expect(await subscriptions(db, account.id)).toEqual([
      `briefing ada@example.com (Ada (signed up), email) ACTIVE 2024-03-05T10:00:00.000Z ${NEWSLETTER_CSV_CONSENT_SOURCE}`,
      `briefing bob@example.net (Bob, newsletter-csv) ACTIVE 2024-03-25T00:00:00.000Z ${NEWSLETTER_CSV_CONSENT_SOURCE}`,
      `long-read ada@example.com (Ada (signed up), email) ACTIVE 2024-03-06T00:00:00.000Z ${NEWSLETTER_CSV_CONSENT_SOURCE}`,
      `long-read dan@example.com (Dan, newsletter-csv) ACTIVE 2024-03-05T00:00:00.000Z ${NEWSLETTER_CSV_CONSENT_SOURCE}`,
    ]);
    const created = await db.member.findMany({ where: { accountId: account.id, source: "newsletter-csv" } });
    expect(created.map((m) => [m.email, m.emailVerified])).toEqual(
      expect.arrayContaining([
        ["bob@example.net", false],
        ["dan@example.com", false],
      ]),
    );
    expect(await db.member.count({ where: { accountId: account.id, email: "ada@example.com" } })).toBe(1);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(3);
    const adaSubs = await db.newsletterSubscription.count({ where: { memberId: ada.id } });
    expect(adaSubs).toBe(2);
  });

  it("changes nothing when run again, and resumes a killed run to the same end", async () => {
    const { db, account } = await setup();
    const again = await expectRunAgainChangesNothing(db, {
      accountId: account.id,
      source: "newsletter-csv",
      file: path.join(FIXTURES, FILE),
      over: { now },
      snapshot: subscriptions,
    });
    expect(again.kinds["newsletter-subscription"]).toEqual({ create: 0, update: 0, skip: 6, refuse: 6 });
    expect(again.lines.skip.map((l) => l.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^imported before \(subscription #\d+\)$/)]),
    );

    const whole = await setup();
    const killed = await setup();
    await expectResumedLikeWhole(db, {
      source: "newsletter-csv",
      file: path.join(FIXTURES, FILE),
      whole: whole.account,
      killed: killed.account,
      stopAts: [3, 2],
      over: { now, batchSize: 2 },
      snapshot: subscriptions,
    });
  });

  it("leaves alone a reader who left the newsletter or waits to confirm in Masthead", async () => {
    const { db, account, ada } = await setup();
    const briefing = await db.newsletter.findFirstOrThrow({ where: { accountId: account.id, slug: "briefing" } });
    const left = new Date("2026-10-01T00:00:00Z");
    await db.newsletterSubscription.create({
      data: {
        accountId: account.id,
        newsletterId: briefing.id,
        memberId: ada.id,
        status: "UNSUBSCRIBED",
        consentedAt: new Date("2026-01-01T00:00:00Z"),
        consentSource: "widget",
        unsubscribedAt: left,
        unsubscribeSource: "one_click",
      },
    });
    const report = await importFixture(db, account.id, "newsletter-csv", FILE, { now });
    expect(report.lines.skip.map((l) => `${l.label}: ${l.reason}`)).toContain(
      `line 2 (ada@example.com, briefing): left briefing in Masthead on ${left.toISOString()}: not subscribed again`,
    );
    const row = await db.newsletterSubscription.findUniqueOrThrow({
      where: { newsletterId_memberId: { newsletterId: briefing.id, memberId: ada.id } },
    });
    expect(row).toMatchObject({ status: "UNSUBSCRIBED", consentSource: "widget" });
  });

  it("takes the default newsletter from the command line for rows that name none", async () => {
    const { db, account } = await setup();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-newsletter-csv-"));
    const file = path.join(dir, "list.csv");
    await fs.writeFile(file, "email,name,consented_at\r\nzoe@example.com,Zoë,2025-01-02 03:04:05\r\n");
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
    const args = ["--from", "newsletter-csv", file, "--account", account.slug];

    expect((await importCommand(db, [...args, "--newsletter", "long-read", "--dry-run"], io)).code).toBe(0);
    expect(await db.newsletterSubscription.count({ where: { accountId: account.id } })).toBe(0);
    const run = await importCommand(db, [...args, "--newsletter", "long-read"], io);
    expect(run.code).toBe(0);
    expect(await subscriptions(db, account.id)).toEqual([
      `long-read zoe@example.com (Zoë, newsletter-csv) ACTIVE 2025-01-02T03:04:05.000Z ${NEWSLETTER_CSV_CONSENT_SOURCE}`,
    ]);
    expect((await importCommand(db, ["--from", "ghost-members", file, "--newsletter", "x"], io)).code).toBe(2);
    expect(err.join("\n")).toMatch(/--newsletter is for --from newsletter-csv/);
  });
});
