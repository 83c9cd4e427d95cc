/**
 * Ghost's members CSV imported into an account that already has the Disqus fixture's commenters,
 * on PGlite and PostgreSQL: one reader one member across the two files (two spellings of one
 * e-mail), field by field; consents; what is refused and said; the dry run changing nothing; a
 * second run changing nothing; a run killed mid-way ending as an uninterrupted one; a file cut
 * off and a wrong header; and an imported reader logging in landing on the same member.
 */
import { describe, expect, it } from "vitest";

import { getEnv } from "@/env.js";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { logInMember, requestPasswordReset, resetPasswordWithToken } from "@/server/members/members";
import { logInWithProvider } from "@/server/members/social-login";
import { getPublisher } from "@/server/publishing/publisher";
import { describeImportConformance } from "@/server/testing/import-conformance";
import { importAccount, importFixture, tableCounts } from "@/server/testing/imports";
import { startTestOidcProvider } from "@/server/testing/oidc-provider";
import { createTestStaff } from "@/server/testing/staff";

import { ImportFileError } from "../types";
import { GHOST_CONSENT_SOURCE, NEWSLETTER_LIST } from "./ghost-members";

const NOW = new Date("2026-11-26T12:00:00Z");
const now = () => NOW;
const GHOST = "ghost-members.csv";

/** The account with the Disqus fixture's comments (Bob, Zoë and Carol comment there). */
async function setup(slug?: string) {
  const db = await getDb();
  const account = await importAccount(db, slug);
  const disqus = await importFixture(db, account.id, "disqus", "disqus-sample.xml", { now });
  expect(disqus.status).toBe("completed");
  return { db, account };
}

const memberByEmail = (db: Db, accountId: number, email: string) =>
  db.member.findUniqueOrThrow({
    where: { accountId_email: { accountId, email } },
    include: { identities: { orderBy: { provider: "asc" } }, consents: true },
  });

/** Members, identities and consents of an account, by e-mail (ids left out). */
async function readers(db: Db, accountId: number) {
  const members = await db.member.findMany({
    where: { accountId },
    include: { identities: true, consents: true },
    orderBy: { email: "asc" },
  });
  return members.map((m) => ({
    email: m.email.endsWith(".invalid") ? "(placeholder)" : m.email,
    name: m.name,
    source: m.source,
    createdAt: m.createdAt.toISOString(),
    emailVerified: m.emailVerified,
    identities: m.identities.map((i) => `${i.provider}:${i.externalId}`).sort(),
    consents: m.consents.map((c) => `${c.list} ${c.source} ${c.consentedAt.toISOString()}`),
  }));
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("importing Ghost's members CSV", () => {
  it("makes each reader one member, the commenters' own, field by field", async () => {
    const { db, account } = await setup();
    const bobBefore = await memberByEmail(db, account.id, "bob@example.net");
    const carolBefore = await memberByEmail(db, account.id, "carol@example.com");
    const report = await importFixture(db, account.id, "ghost-members", GHOST, { now });

    expect(report.status).toBe("completed");
    expect(report.kinds).toEqual({
      member: { create: 2, update: 3, skip: 1, refuse: 5 },
      consent: { create: 3, update: 0, skip: 0, refuse: 0 },
      subscription: { create: 0, update: 0, skip: 0, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => `${l.label}: ${l.reason}`)).toEqual([
      "line 6 (BOB@example.net): its e-mail bob@example.net is line 2's too (one reader, one row): only line 2 is imported",
      'line 7 (not-an-email): its e-mail "not-an-email" is not an address',
      'line 8 (eve@example.com): its subscribed_to_emails "maybe" is not true or false',
      'line 9 (frank@example.com): its created_at "31/12/2021" is not a date',
      expect.stringMatching(/^line 13 \(ida@example\.com\): it has 10 value\(s\) for the header's 12 columns/),
    ]);
    expect(report.lines.skip).toEqual([
      expect.objectContaining({
        label: "line 10 (gone@example.com)",
        reason: "deleted in Ghost on 1 Jan 2024, 00:00 UTC",
      }),
    ]);
    expect(report.problems).toEqual([
      { where: "line 1", message: 'the column "favourite_colour" is not read by this import: ignored' },
    ]);
    expect(report.notes).toEqual(
      expect.arrayContaining([
        'e-mail "Bob@Example.NET" is read as bob@example.net: one reader whatever the spelling',
        "labels are not imported: Masthead has no labels for readers (first: line 2)",
        "staff notes are not imported: Masthead has no place for them (first: line 2)",
        expect.stringMatching(
          /^paid members' access comes from their gateway subscriptions, .*--from subscriptions .*\(first: line 2\)$/,
        ),
        'line 4 (carol@example.com): complimentary access not given: no plan of the account is titled "complimentary": give the plan mapping (--plans MAPPING.json, or on the Import page) or name a plan so',
      ]),
    );

    // Bob commented on Disqus as bob@example.net and is Bob@Example.NET in Ghost: one member, his
    // name as Masthead had it, the Ghost id and the Stripe customer linked, his consent kept.
    const bob = await memberByEmail(db, account.id, "bob@example.net");
    expect(bob.id).toBe(bobBefore.id);
    expect(bob).toMatchObject({ name: "Bob", source: "disqus", emailVerified: false });
    expect(bob.identities.map((i) => [i.provider, i.externalId, i.email])).toEqual([
      ["disqus", "bobby", "bob@example.net"],
      ["ghost", "5f0000000000000000000001", "bob@example.net"],
      ["stripe", "cus_BOB1", "bob@example.net"],
    ]);
    expect(bob.consents).toEqual([
      expect.objectContaining({
        accountId: account.id,
        list: NEWSLETTER_LIST,
        source: GHOST_CONSENT_SOURCE,
        consentedAt: NOW,
      }),
    ]);
    expect(await db.comment.count({ where: { authorId: bob.id } })).toBeGreaterThan(0);
    const carol = await memberByEmail(db, account.id, "carol@example.com");
    expect(carol.id).toBe(carolBefore.id);
    expect(carol.consents.map((c) => c.list)).toEqual([NEWSLETTER_LIST]);
    const zoe = await memberByEmail(db, account.id, "zoe@example.fr");
    expect(zoe.consents).toEqual([]);
    expect(zoe.identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual([
      "disqus:zoe",
      "ghost:5f0000000000000000000002",
      "stripe:cus_ZOE",
    ]);

    // New readers: named and dated as in Ghost, unverified, no usable password.
    const dave = await db.member.findUniqueOrThrow({
      where: { accountId_email: { accountId: account.id, email: "dave@example.org" } },
      include: { identities: { orderBy: { provider: "asc" } }, consents: true },
      omit: { passwordHash: false },
    });
    expect(dave).toMatchObject({
      name: 'Dave "The Reader" Jones',
      source: "ghost",
      emailVerified: false,
      passwordHash: "!no-password",
      createdAt: new Date("2023-07-08T12:00:00Z"),
      communicationEmail: null,
    });
    expect(dave.identities.map((i) => `${i.provider}:${i.externalId}`)).toEqual([
      "ghost:5f0000000000000000000004",
      "stripe:cus_DAVE",
    ]);
    expect(dave.consents).toHaveLength(1);
    const gil = await memberByEmail(db, account.id, "gil@example.com");
    expect(gil).toMatchObject({ name: "Gil", createdAt: new Date("2024-02-02T00:00:00Z") });
    expect(gil.consents).toEqual([]);
    for (const email of ["gone@example.com", "eve@example.com", "frank@example.com", "ida@example.com"]) {
      expect(await db.member.count({ where: { accountId: account.id, email } })).toBe(0);
    }

    // Quiet, and recorded.
    expect(await db.webhookEvent.count({ where: { accountId: account.id } })).toBe(0);
    expect(await db.outgoingEmail.count({ where: { accountId: account.id } })).toBe(0);
    const audits = await db.auditLog.findMany({ where: { targetId: report.runId! }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => a.action)).toEqual(["import.started", "import.finished"]);
    expect(audits[1]!.metadata).toMatchObject({ source: "ghost-members", file: GHOST, status: "completed" });
  });

  it("refuses whole a cut-off file or one that is not Ghost's, writing nothing", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const before = await tableCounts(db);
    await expect(
      importFixture(db, account.id, "ghost-members", "ghost-members-truncated.csv", { now }),
    ).rejects.toThrow(
      new ImportFileError(
        "ghost-members-truncated.csv: line 3: the file ends inside a quoted value: it was cut off. Nothing of it is imported.",
      ),
    );
    expect(await tableCounts(db)).toEqual(before);

    await expect(importFixture(db, account.id, "ghost-members", "ghost-members-wrong-header.csv")).rejects.toThrow(
      new ImportFileError(
        'A Ghost members export: the header has no column "email" (it has "email address", "first name", "last name").',
      ),
    );
    expect(await tableCounts(db)).toEqual(before);
  });

  it("lets an imported reader log in with the same verified e-mail and find the same member", async () => {
    const { db, account } = await setup();
    await importFixture(db, account.id, "ghost-members", GHOST, { now });
    const publisher = await getPublisher(db, account.id, { appUrl: getEnv().APP_URL });
    const bob = await memberByEmail(db, account.id, "bob@example.net");
    const dave = await memberByEmail(db, account.id, "dave@example.org");

    // A password reset proves the address: the reader who never had a Masthead password sets one.
    await requestPasswordReset(db, { publisher, email: " DAVE@Example.org ", now: new Date() });
    const mail = await db.outgoingEmail.findFirstOrThrow({ where: { accountId: account.id, to: "dave@example.org" } });
    const token = /token=([^\s&]+)/.exec(mail.text)![1]!;
    await resetPasswordWithToken(db, {
      publisher,
      token: decodeURIComponent(token),
      password: "correct horse battery",
      now: new Date(),
    });
    const login = await logInMember(db, {
      publisher,
      input: { email: "Dave@Example.ORG", password: "correct horse battery" },
      ip: "192.0.2.1",
      now: new Date(),
    });
    expect(login.member.id).toBe(dave.id);

    // A social login whose provider vouches for the address: the commenter's own member, with
    // the comments Disqus had.
    const op = await startTestOidcProvider();
    try {
      const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
      await owner.caller.loginProviders.save({ name: "google", issuer: op.issuer, clientIds: [op.clientId] });
      const social = await logInWithProvider(db, {
        publisher,
        providerName: "google",
        token: {
          value: await op.idToken({ sub: "g-bob", email: "BOB@example.net", email_verified: true }),
          kind: "auto",
        },
        setSession: true,
        sessionDays: 1,
        allowPrivate: true,
        now: new Date(),
      });
      expect(social.member.id).toBe(bob.id);
      expect(social.member.emailVerified).toBe(true);
      const comments = await db.comment.findMany({ where: { accountId: account.id, authorId: social.member.id } });
      expect(comments.length).toBe(await db.comment.count({ where: { authorId: bob.id } }));
      expect(comments.length).toBeGreaterThan(0);
      expect(await db.member.count({ where: { accountId: account.id, email: "bob@example.net" } })).toBe(1);
    } finally {
      await op.close();
    }
  });
});

describeImportConformance("ghost-members", {
  file: GHOST,
  account: async () => (await setup()).account,
  resumeAccount: async (_db, slug) => (await setup(`ghost-${slug}`)).account,
  over: { now },
  snapshot: readers,
  again: { member: { create: 0, update: 0, skip: 6, refuse: 5 } },
  afterAgain: (again) => expect(again.lines.skip.filter((l) => l.reason.startsWith("imported before"))).toHaveLength(5),
  resume: { stopAts: [3], batchSize: 2 },
});
