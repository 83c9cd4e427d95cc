/**
 * newsletters.* (docs/newsletters.md "In the dashboard"), on PGlite and PostgreSQL: who may manage
 * newsletters, the form's rules (slug per account, e-mails, colours, logo URL, plans and collection
 * of the account, digest), audit entries, subscriber counts and the subscribers list; staff adding
 * (consent "dashboard") and unsubscribing a reader; and the confirmation mail as an SMTP server
 * receives it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseEnv } from "@/env.js";

import { getDb } from "../../db";
import type { Db } from "../../db/client";
import { mailTransportFromEnv } from "../../mail/transport";
import type { TNewsletterFormInput } from "../../newsletters/newsletters.schema";
import { suppress } from "../../newsletters/suppression";
import { forgetPublisherCache } from "../../publishing/publisher";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { startSmtpServer, type TestSmtpServer } from "../../testing/smtp-server";
import { createTestStaff, trpcCodeOf } from "../../testing/staff";
import { insertTestGroup, insertTestPlan } from "../../testing/subscription-fixtures";

const FORM: TNewsletterFormInput = {
  name: "Daily Briefing",
  slug: "daily",
  description: "The morning's news",
  senderName: "The Gazette",
  senderEmail: "News@Gazette.test",
  replyTo: "",
  design: {
    logoUrl: "https://gazette.test/logo.png",
    accentColor: "#112233",
    backgroundColor: "#ffffff",
    footer: "1 Main St, Springfield",
  },
  audience: "OPT_IN",
  planIds: [],
  trackOpens: false,
  trackClicks: true,
  digestCollectionId: null,
  digestSchedule: null,
};

async function setup() {
  const db = await getDb();
  const owner = await createTestStaff(db, { roles: ["OWNER"] });
  const account = owner.account;
  const editor = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
  const revenue = await createTestStaff(db, { account: account.id, roles: ["REVENUE"] });
  const contributor = await createTestStaff(db, { account: account.id, roles: ["CONTRIBUTOR"] });
  const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
  return { db, account, owner, editor, revenue, contributor, moderator };
}

async function issuesOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { details?: { field: string }[]; issues?: { path: (string | number)[] }[] } })
      .cause;
    if (cause?.details) return cause.details.map((d) => d.field);
    if (cause?.issues) return cause.issues.map((i) => i.path.join("."));
    throw error;
  }
  return [];
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("newsletters.*", () => {
  it("editors and revenue staff manage newsletters; contributors and moderators may not", async () => {
    const { db, account, editor, revenue, contributor, moderator } = await setup();
    const created = await editor.caller.newsletters.create(FORM);
    expect(created).toMatchObject({
      slug: "daily",
      senderEmail: "news@gazette.test",
      replyTo: null,
      trackOpens: false,
      trackClicks: true,
      design: { logoUrl: "https://gazette.test/logo.png", accentColor: "#112233", footer: "1 Main St, Springfield" },
      counts: { active: 0, pending: 0, unsubscribed: 0 },
    });
    expect(await revenue.caller.newsletters.list()).toHaveLength(1);
    expect(await trpcCodeOf(contributor.caller.newsletters.list())).toBe("FORBIDDEN");
    expect(await trpcCodeOf(moderator.caller.newsletters.create({ ...FORM, slug: "other" }))).toBe("FORBIDDEN");
    expect(await db.newsletter.count({ where: { accountId: account.id } })).toBe(1);
    const audit = await db.auditLog.findMany({
      where: { accountId: account.id },
      select: { action: true, actorId: true },
    });
    expect(audit).toEqual([{ action: "newsletter.create", actorId: editor.user.id }]);
  });

  it("refuses invalid fields by name, a taken slug, and another account's plan or collection, writing nothing", async () => {
    const { db, account, owner } = await setup();
    await owner.caller.newsletters.create(FORM);
    expect(
      await issuesOf(
        owner.caller.newsletters.create({
          ...FORM,
          slug: "Bad Slug",
          senderEmail: "nope",
          design: { ...FORM.design, logoUrl: "javascript:alert(1)", accentColor: "red" },
          digestSchedule: { days: [0, 8], time: "25:00" },
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        "slug",
        "senderEmail",
        "design.logoUrl",
        "design.accentColor",
        "digestSchedule.days.0",
        "digestSchedule.time",
      ]),
    );
    expect(await trpcCodeOf(owner.caller.newsletters.create({ ...FORM, name: "Again" }))).toBe("CONFLICT");
    expect(await issuesOf(owner.caller.newsletters.create({ ...FORM, slug: "paid", planIds: [1] }))).toEqual([
      "planIds",
    ]);

    const other = await createTestStaff(db, { roles: ["OWNER"] });
    const foreignGroup = await insertTestGroup(db, other.account.id);
    const foreignPlan = await insertTestPlan(db, foreignGroup);
    const foreignCollection = await db.collection.create({
      data: { accountId: other.account.id, slug: "home", name: "Home" },
    });
    const refused = owner.caller.newsletters.create({
      ...FORM,
      slug: "paid",
      audience: "PAYING",
      planIds: [foreignPlan.id],
      digestCollectionId: foreignCollection.id,
      digestSchedule: { days: [1], time: "07:00" },
    });
    expect(await issuesOf(refused)).toEqual(["planIds", "digestCollectionId"]);
    expect(await db.newsletter.count({ where: { accountId: account.id } })).toBe(1);

    const group = await insertTestGroup(db, account.id);
    const plan = await insertTestPlan(db, group);
    const home = await db.collection.create({ data: { accountId: account.id, slug: "home", name: "Home" } });
    const paid = await owner.caller.newsletters.create({
      ...FORM,
      slug: "paid",
      audience: "PAYING",
      planIds: [plan.id],
      digestCollectionId: home.id,
      digestSchedule: { days: [5, 1], time: "07:30" },
    });
    expect(paid).toMatchObject({
      planIds: [plan.id],
      digestCollectionId: home.id,
      digestSchedule: { days: [1, 5], time: "07:30" },
    });
    expect(await owner.caller.newsletters.options()).toMatchObject({
      plans: [{ id: plan.id }],
      collections: [{ id: home.id }],
    });
    // The form says digests wait for the site URL: options tell it whether the URL is set.
    const siteUrlSet = async (siteUrl: string) => {
      await db.publisherConfig.upsert({
        where: { accountId: account.id },
        create: { accountId: account.id, siteUrl, cdnImage: "images.example.com" },
        update: { siteUrl },
      });
      forgetPublisherCache();
      return (await owner.caller.newsletters.options()).siteUrlSet;
    };
    expect(await siteUrlSet("")).toBe(false);
    expect(await siteUrlSet("https://news.example.com")).toBe(true);
    // Another account's newsletter is not found.
    expect(await trpcCodeOf(other.caller.newsletters.get({ id: paid.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(other.caller.newsletters.update({ id: paid.id, newsletter: FORM }))).toBe("NOT_FOUND");
  });

  it("updates, archives and brings back, each audited once", async () => {
    const { db, account, owner } = await setup();
    const created = await owner.caller.newsletters.create(FORM);
    const updated = await owner.caller.newsletters.update({
      id: created.id,
      newsletter: { ...FORM, name: "Morning Briefing", trackOpens: true, replyTo: "desk@gazette.test" },
    });
    expect(updated).toMatchObject({ name: "Morning Briefing", trackOpens: true, replyTo: "desk@gazette.test" });
    expect((await owner.caller.newsletters.archive({ id: created.id, archived: true })).archivedAt).not.toBeNull();
    await owner.caller.newsletters.archive({ id: created.id, archived: true });
    expect((await owner.caller.newsletters.archive({ id: created.id, archived: false })).archivedAt).toBeNull();
    const actions = await db.auditLog.findMany({
      where: { accountId: account.id },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    });
    expect(actions.map((a) => a.action)).toEqual([
      "newsletter.create",
      "newsletter.update",
      "newsletter.archive",
      "newsletter.unarchive",
    ]);
  });

  it("staff add and unsubscribe readers; the list filters by status and counts them", async () => {
    const { db, account, revenue } = await setup();
    const daily = await revenue.caller.newsletters.create(FORM);
    await db.member.create({
      data: { accountId: account.id, name: "Ada", email: "ada@example.com", emailVerified: true, passwordHash: "-" },
    });
    const ada = await revenue.caller.newsletters.addSubscriber({ newsletterId: daily.id, email: "ADA@example.com" });
    expect(ada).toMatchObject({ status: "ACTIVE", mailed: false });
    const bo = await revenue.caller.newsletters.addSubscriber({
      newsletterId: daily.id,
      email: "bo@example.com",
      name: "Bo",
    });
    expect(bo).toMatchObject({ status: "PENDING", mailed: true });
    expect(
      await revenue.caller.newsletters.addSubscriber({ newsletterId: daily.id, email: "bo@example.com" }),
    ).toMatchObject({
      subscriptionId: bo.subscriptionId,
      mailed: false,
    });
    const page = await revenue.caller.newsletters.subscribers({ newsletterId: daily.id });
    expect(page.items.map((s) => [s.email, s.name, s.status, s.consentSource])).toEqual([
      ["bo@example.com", "Bo", "PENDING", "dashboard"],
      ["ada@example.com", "Ada", "ACTIVE", "dashboard"],
    ]);
    await revenue.caller.newsletters.unsubscribe({ newsletterId: daily.id, subscriptionId: ada.subscriptionId });
    await revenue.caller.newsletters.unsubscribe({ newsletterId: daily.id, subscriptionId: ada.subscriptionId });
    const left = await revenue.caller.newsletters.subscribers({ newsletterId: daily.id, status: "UNSUBSCRIBED" });
    expect(left.items).toHaveLength(1);
    expect(left.items[0]).toMatchObject({ email: "ada@example.com", unsubscribeSource: "dashboard" });
    expect(left.items[0]!.unsubscribedAt).toBeInstanceOf(Date);
    expect((await revenue.caller.newsletters.get({ id: daily.id })).counts).toEqual({
      active: 0,
      pending: 1,
      unsubscribed: 1,
    });
    const paged = await revenue.caller.newsletters.subscribers({ newsletterId: daily.id, limit: 1 });
    expect(paged.nextCursor).toBe(bo.subscriptionId);
    const rest = await revenue.caller.newsletters.subscribers({
      newsletterId: daily.id,
      limit: 1,
      cursor: paged.nextCursor!,
    });
    expect(rest.items.map((s) => s.id)).toEqual([ada.subscriptionId]);
    const actions = await db.auditLog.findMany({ where: { accountId: account.id }, select: { action: true } });
    expect(actions.map((a) => a.action).sort()).toEqual([
      "newsletter.create",
      "newsletter.subscriber_add",
      "newsletter.subscriber_add",
      "newsletter.subscriber_add",
      "newsletter.subscriber_unsubscribe",
    ]);
    expect(
      await trpcCodeOf(revenue.caller.newsletters.addSubscriber({ newsletterId: daily.id, email: "not-mail" })),
    ).toBe("BAD_REQUEST");
  });
});

describe("staff and suppressed addresses", () => {
  it("a suppressed address added by staff is pending with a confirmation mail, never active", async () => {
    const { db, account, editor } = await setup();
    const daily = await editor.caller.newsletters.create(FORM);
    await db.member.create({
      data: { accountId: account.id, name: "Di", email: "di@example.com", emailVerified: true, passwordHash: "-" },
    });
    await suppress(db, { accountId: account.id, email: "di@example.com", reason: "complaint" });
    expect(
      await editor.caller.newsletters.addSubscriber({ newsletterId: daily.id, email: "di@example.com" }),
    ).toMatchObject({
      status: "PENDING",
      mailed: true,
    });
    expect(await db.emailSuppression.count({ where: { accountId: account.id } })).toBe(1);
  });
});

describe("the confirmation mail over SMTP", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: "mailer", pass: "secret-pass" });
  });
  afterAll(async () => {
    await smtp.close();
  });

  async function drain(db: Db, mail: ReturnType<typeof mailTransportFromEnv>) {
    for (let pass = 0; pass < 5; pass++) if ((await runJobsNow(db, testJobDeps({ mail }))).claimed === 0) return;
  }

  it("arrives from the newsletter sender with its subject, the confirm link and one-click unsubscribe headers", async () => {
    const { db, owner } = await setup();
    const daily = await owner.caller.newsletters.create(FORM);
    await owner.caller.newsletters.addSubscriber({ newsletterId: daily.id, email: "cy@example.com" });
    const mail = mailTransportFromEnv(
      parseEnv({ SMTP_URL: `smtp://mailer:secret-pass@127.0.0.1:${smtp.port}`, MAIL_FROM: "News <news@gazette.test>" }),
    );
    await drain(db, mail);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(["cy@example.com"]);
    const unfolded = smtp.received[0]!.raw.replace(/\r\n[ \t]+/g, " ");
    expect(unfolded).toMatch(/^Subject: Confirm your subscription to Daily Briefing\r?$/m);
    // From the newsletter's sender, as its issues are, not MAIL_FROM ("News").
    expect(unfolded).toMatch(/^From: "?The Gazette"? <news@gazette\.test>\r?$/m);
    expect(unfolded).toMatch(
      /^List-Unsubscribe: <https?:\/\/[^>]+\/api\/newsletters\/unsubscribe\/unsubscribe\.\d+\.[A-Za-z0-9_-]{43}>\r?$/m,
    );
    expect(unfolded).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const body = unfolded.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(body).toMatch(/\/newsletters\/confirm\/confirm\.\d+\.[A-Za-z0-9_-]{43}/);
    expect(await db.outgoingEmail.count({ where: { kind: "newsletter.confirm", status: "SENT" } })).toBe(1);
  });
});
