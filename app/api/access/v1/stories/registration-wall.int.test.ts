/**
 * The registration wall (docs/subscriptions.md "Registration wall"), on PGlite and PostgreSQL: an
 * anonymous reader reads N stories free on the registration meter ("w:<readerId>", apart from the
 * paid meter), then meets the registration wall (`data.wall: "registration"`); once logged in, the
 * paid meter applies as without the wall, up to the paid wall. Counting is once per reader, story
 * and period, and never past N under parallel pingbacks. The owner's settings are checked (a bad
 * value: 400 naming the field, nothing saved) and audited; a sign-up from the wall joins the
 * newsletter only when its box is ticked, with a consent record.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as bkSignup } from "@/app/api/auth/v1/signup/route";
import { translator } from "@/i18n/translate";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { createMemberSession } from "@/server/members/sessions";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { ampAccess, createAccessFixture, pingback, send } from "@/server/testing/access-calls";
import { insertMember, setMeter } from "@/server/testing/access-fixtures";
import { readerJwt } from "@/server/testing/engagement";
import { forgetRateLimits } from "@/server/testing/hostile-newsletters";
import { post, uniqueEmail } from "@/server/testing/member-calls";
import { insertNewsletter } from "@/server/testing/newsletter-fixtures";
import { createTestStaff } from "@/server/testing/staff";

import { GET as ACCESS } from "./[storyId]/access/route";
import { POST as PINGBACK } from "./[storyId]/pingback/route";

const setup = async () => createAccessFixture(await getDb());

const countOf = (db: Db, accountId: number, readerKey: string) =>
  db.meterView.count({ where: { accountId, readerKey } });

describe("the registration wall", () => {
  it("asks an anonymous reader to sign up after N free stories, then the paid meter applies once logged in", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 1, registrationWall: true, registrationFreeStories: 2 });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => story("subscription")));
    const q = { key, readerId: "wall-1" };

    expect(await ampAccess(a!.id, q)).toEqual({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 1, isLoggedIn: false, isLast: false, wall: null },
    });
    await pingback(a!.id, q);
    // The web check counts too (count=true), on the same registration meter.
    const web = await send(ACCESS, b!.id, { ...q, count: "true" });
    expect(await web.json()).toMatchObject({ granted: true, data: { numberRemaining: 0, isLast: true, wall: null } });
    expect(await ampAccess(c!.id, q)).toEqual({
      granted: false,
      grantReason: null,
      data: { numberRemaining: 0, isLoggedIn: false, isLast: false, wall: "registration" },
    });
    await pingback(c!.id, q, PINGBACK); // denied: nothing counted
    expect(await countOf(db, account.id, "w:wall-1")).toBe(2);
    expect(await countOf(db, account.id, "r:wall-1")).toBe(0);
    // A story read before the wall is read again free.
    expect(await ampAccess(a!.id, q)).toMatchObject({ granted: true, data: { wall: null } });

    // Registered (logged in with the publisher's JWT): the paid meter's 1 free story, then the paid wall.
    const jwt = await readerJwt({ id: "registered-1", name: "Reg" });
    const signedIn = { ...q, accesstype_jwt: jwt };
    expect(await ampAccess(c!.id, signedIn)).toMatchObject({
      granted: true,
      grantReason: "METERING",
      data: { numberRemaining: 0, isLoggedIn: true, isLast: true, wall: null },
    });
    await pingback(c!.id, signedIn);
    expect(await ampAccess(d!.id, signedIn)).toMatchObject({
      granted: false,
      data: { isLoggedIn: true, wall: "paid" },
    });
  });

  it("counts a story once, and never past N, under parallel pingbacks", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { registrationWall: true, registrationFreeStories: 2 });
    const stories = await Promise.all(Array.from({ length: 6 }, () => story("subscription")));
    await Promise.all(Array.from({ length: 8 }, () => pingback(stories[0]!.id, { key, readerId: "dup" })));
    expect(await countOf(db, account.id, "w:dup")).toBe(1);
    await Promise.all(stories.map((s) => pingback(s.id, { key, readerId: "race" }, PINGBACK)));
    await Promise.all(stories.map((s) => send(ACCESS, s.id, { key, readerId: "race", count: "true" })));
    expect(await countOf(db, account.id, "w:race")).toBe(2);
    const granted = await Promise.all(stories.map((s) => ampAccess(s.id, { key, readerId: "race" })));
    expect(granted.filter((g) => g.granted)).toHaveLength(2);
    expect(granted.filter((g) => g.data.wall === "registration")).toHaveLength(4);
  });

  it("leaves subscribers-only front ends (disable-meter) and public and login stories as they were", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { registrationWall: true, registrationFreeStories: 0 });
    const [paid, open, login] = [await story("subscription"), await story("public"), await story("login")];
    const q = { key, readerId: "edge" };
    expect(await ampAccess(paid.id, q)).toMatchObject({ granted: false, data: { wall: "registration" } });
    // AMP's words for it, in the page's language.
    expect(await ampAccess(paid.id, { ...q, locale: "es" })).toMatchObject({
      data: { messages: { notice: translator("paywall", "es")("access.registerToRead") } },
    });
    expect(await ampAccess(paid.id, { ...q, "disable-meter": "true" })).toMatchObject({
      granted: false,
      data: { wall: "paid" },
    });
    expect(await ampAccess(open.id, q)).toMatchObject({ granted: true, grantReason: "FREE" });
    expect(await ampAccess(login.id, q)).toMatchObject({ granted: false, data: { wall: "registration" } });
  });
});

describe("a reader signed in with a Masthead session", () => {
  it("is registered for the wall without a publisher JWT: the paid meter counts on their member, and the browser is linked", async () => {
    const { db, account, key, story } = await setup();
    await setMeter(db, account.id, { freeStories: 1, registrationWall: true, registrationFreeStories: 0 });
    const [a, b] = await Promise.all([1, 2].map(() => story("subscription")));
    const member = await insertMember(db, account.id);
    const { token } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 1 });
    const q = { key, readerId: "session-1" };

    // Anonymous, the wall asks this browser to register at once.
    expect(await (await send(ACCESS, a!.id, q)).json()).toMatchObject({
      granted: false,
      data: { wall: "registration" },
    });
    // With the session (the header, or the cookie the sign-up set): the paid meter, on the member.
    const asMember = await send(ACCESS, a!.id, { ...q, count: "true" }, { headers: { "X-QT-AUTH": token } });
    expect(await asMember.json()).toMatchObject({ granted: true, grantReason: "METERING", data: { isLoggedIn: true } });
    expect(await countOf(db, account.id, `m:${member.id}`)).toBe(1);
    const cookie = { cookie: `qt-auth=${token}` };
    await send(PINGBACK, b!.id, q, {
      method: "POST",
      body: "{}",
      headers: { ...cookie, "content-type": "text/plain" },
    });
    expect(await (await send(ACCESS, b!.id, q, { headers: cookie })).json()).toMatchObject({
      granted: false,
      data: { isLoggedIn: true, wall: "paid" },
    });
    expect(await countOf(db, account.id, `m:${member.id}`)).toBe(1);
    expect(
      await db.conversionReaderLink.findMany({ where: { accountId: account.id, readerId: "session-1" } }),
    ).toMatchObject([{ memberId: member.id }]);

    // A session that is not live is no reader: anonymous, not an error.
    const stale = await send(ACCESS, a!.id, q, { headers: { "X-QT-AUTH": "not-a-session" } });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toMatchObject({ granted: false, data: { isLoggedIn: false, wall: "registration" } });
  });
});

describe("the registration wall's settings", () => {
  it("saves and audits them; a bad value is 400 naming the field and saves nothing", async () => {
    const db = await getDb();
    const revenue = await createTestStaff(db, { roles: ["REVENUE"] });
    const base = {
      enabled: true,
      freeStories: 3,
      periodLength: 1,
      periodUnit: "months",
      meterAnonymous: true,
    } as const;
    expect(await revenue.caller.paywallMeter.get()).toMatchObject({
      registrationWall: false,
      registrationFreeStories: 3,
    });

    for (const bad of [-1, 1001, 2.5]) {
      const error = await revenue.caller.paywallMeter
        .update({ ...base, registrationWall: true, registrationFreeStories: bad })
        .then(
          () => null,
          (e: unknown) => e as { code?: string; cause?: { issues?: { path: PropertyKey[] }[] } },
        );
      expect(error?.code).toBe("BAD_REQUEST");
      expect(error?.cause?.issues?.map((i) => i.path.join("."))).toEqual(["registrationFreeStories"]);
    }
    expect(await db.meterSettings.findUnique({ where: { accountId: revenue.account.id } })).toBeNull();
    expect(await db.auditLog.count({ where: { accountId: revenue.account.id, action: "meter_settings.update" } })).toBe(
      0,
    );

    await revenue.caller.paywallMeter.update({ ...base, registrationWall: true, registrationFreeStories: 4 });
    const saved = await revenue.caller.paywallMeter.update({
      ...base,
      registrationWall: false,
      registrationFreeStories: 5,
    });
    expect(saved).toMatchObject({ configured: true, registrationWall: false, registrationFreeStories: 5 });
    const audits = await db.auditLog.findMany({
      where: { accountId: revenue.account.id, action: "meter_settings.update" },
      select: { metadata: true },
    });
    const metadata = audits.map((a) => a.metadata as { registrationWall?: unknown; previous?: unknown });
    expect(metadata.find((m) => m.previous === null)).toMatchObject({
      registrationWall: true,
      registrationFreeStories: 4,
    });
    expect(metadata.find((m) => m.previous !== null)).toMatchObject({
      registrationWall: false,
      registrationFreeStories: 5,
      previous: { registrationWall: true, registrationFreeStories: 4 },
    });
  });
});

describe("signing up from the wall", () => {
  beforeEach(() => {
    forgetPublisherCache();
    forgetRateLimits();
  });

  const signUp = (body: Record<string, unknown>) => post(bkSignup, "/api/auth/v1/signup", body);

  it("joins the newsletter, with a consent record, only when its box is ticked", async () => {
    const { db, account } = await setup();
    const newsletter = await insertNewsletter(db, account.id, { name: "Morning Brief" });

    const unticked = uniqueEmail("wall");
    expect((await signUp({ email: unticked, password: "correct horse battery", newsletters: [] })).status).toBe(201);
    const plain = await db.member.findFirstOrThrow({ where: { email: unticked } });
    expect(await db.newsletterSubscription.count({ where: { memberId: plain.id } })).toBe(0);
    expect(await db.consentRecord.count({ where: { memberId: plain.id } })).toBe(0);

    const ticked = uniqueEmail("wall");
    const res = await signUp({ email: ticked, password: "correct horse battery", newsletters: [newsletter.slug] });
    expect(res.status).toBe(201);
    const joined = await db.member.findFirstOrThrow({ where: { email: ticked } });
    expect(await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: joined.id } })).toMatchObject({
      newsletterId: newsletter.id,
      status: "PENDING", // confirmed by the mail it sends: the e-mail is not proven yet
    });
    expect(await db.consentRecord.findMany({ where: { memberId: joined.id } })).toMatchObject([
      { purpose: `newsletter:${newsletter.id}`, given: true },
    ]);
  });

  it("refuses a newsletter readers cannot join, naming the field, and creates nobody", async () => {
    const { db, account } = await setup();
    const paying = await insertNewsletter(db, account.id, { audience: "PAYING" });
    for (const slug of ["no-such-letter", paying.slug]) {
      const email = uniqueEmail("wall");
      const res = await signUp({ email, password: "correct horse battery", newsletters: [slug] });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { details: [{ field: "newsletters" }] } });
      expect(await db.member.count({ where: { email } })).toBe(0);
    }
    const res = await signUp({
      email: uniqueEmail("wall"),
      password: "correct horse battery",
      newsletters: ["Bad Slug"],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { details: [{ field: "body.newsletters.0" }] } });
  });
});
