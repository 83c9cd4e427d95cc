/**
 * The newsletter routes that take a body, against bodies of the wrong type, shape, depth or size
 * and addresses with control characters, homoglyphs or header injections, on PGlite and
 * PostgreSQL: the public sign-up, the member API (also without a session or with a forged one, and
 * with bad slugs) and bounce reports (also without the right server key). Every refusal is the
 * right status with the JSON error shape (never a 500, never a stack) and changes nothing in the
 * newsletter tables; fields the routes do not know cannot confirm, verify or pick the consent
 * source, and another account's key or newsletter reaches nothing of this one.
 */
import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/auth/api-keys";
import { createMemberSession } from "@/server/members/sessions";
import { call } from "@/server/testing/engagement";
import {
  endlessStream,
  expectRefused,
  forgetRateLimits,
  hostileSetup,
  snapshot,
} from "@/server/testing/hostile-newsletters";
import { insertTestNewsletter } from "@/server/testing/newsletters";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { PUT as MEMBER_PUT } from "../member/newsletters/[slug]/route";
import { GET as MEMBER_LIST } from "../member/newsletters/route";
import * as bouncesRoute from "../v1/newsletters/bounces/route";
import * as subscribeRoute from "./subscribe/route";

describe("the public sign-up's body", () => {
  const subscribe = (body: BodyInit | null, headers: Record<string, string> = {}) => {
    forgetRateLimits();
    return subscribeRoute.POST(
      new Request("http://localhost/api/newsletters/subscribe", {
        method: "POST",
        headers,
        body,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({}) },
    );
  };
  const json = (value: unknown) => subscribe(JSON.stringify(value), { "content-type": "application/json" });

  it("of another type is 415, malformed or not an object 400, too large 413", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const good = JSON.stringify({ account_id: f.account.id, email: "new@example.com", newsletters: ["daily"] });
    const typed: [string, BodyInit, Record<string, string>, number][] = [
      ["text/plain", good, { "content-type": "text/plain" }, 415],
      [
        "a form",
        `account_id=${f.account.id}&email=new@example.com&newsletters=daily`,
        { "content-type": "application/x-www-form-urlencoded" },
        415,
      ],
      ["multipart", "--x\r\n\r\n--x--", { "content-type": "multipart/form-data; boundary=x" }, 415],
      ["no content type", good, {}, 415],
      ["application/xml", `<a>${good}</a>`, { "content-type": "application/xml" }, 415],
      ["malformed JSON", "{not json", { "content-type": "application/json" }, 400],
      ["JSON cut short", good.slice(0, -1), { "content-type": "application/json" }, 400],
      ["trailing garbage after the JSON", `${good}}`, { "content-type": "application/json" }, 400],
      ["an array", "[]", { "content-type": "application/json" }, 400],
      ["a string", '"daily"', { "content-type": "application/json" }, 400],
      ["null", "null", { "content-type": "application/json" }, 400],
      ["a number", "42", { "content-type": "application/json" }, 400],
      ["nested 2,000 deep", `${"[".repeat(2000)}${"]".repeat(2000)}`, { "content-type": "application/json" }, 400],
      [
        "nested 10,000 deep (over the limit)",
        `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`,
        { "content-type": "application/json" },
        413,
      ],
      [
        "5 kB",
        JSON.stringify({
          account_id: f.account.id,
          email: "new@example.com",
          newsletters: ["daily"],
          name: "x".repeat(5000),
        }),
        { "content-type": "application/json" },
        413,
      ],
      [
        "a lying Content-Length",
        good.padEnd(8000, " "),
        { "content-type": "application/json", "content-length": "10" },
        413,
      ],
    ];
    for (const [what, body, headers, status] of typed)
      await expectRefused(await subscribe(body, headers), status, what);

    // A stream without a Content-Length is cut off at the limit.
    const endless = endlessStream();
    await expectRefused(await subscribe(endless, { "content-type": "application/json" }), 413, "a stream");
    expect(endless.pulled()).toBeLessThan(20);
    expect(await snapshot(f.db)).toBe(before);
  });

  it("with a bad address, name or list is 400 and writes nothing", async () => {
    const f = await hostileSetup();
    const before = await snapshot(f.db);
    const base = { account_id: f.account.id, email: "new@example.com", newsletters: ["daily"] };
    const cases: [string, unknown][] = [
      ["a line break in the address", { ...base, email: "new@example.com\r\nBcc: all@example.com" }],
      ["a line feed inside the address", { ...base, email: "new\n@example.com" }],
      ["a bell in the address", { ...base, email: "ne\u0007w@example.com" }],
      ["a tab in the address", { ...base, email: "ne\tw@example.com" }],
      ["DEL in the address", { ...base, email: "new\u007f@example.com" }],
      ["a 10 kB address", { ...base, email: `${"a".repeat(3000)}@example.com` }],
      ["a Cyrillic homoglyph in the address", { ...base, email: "n\u0435w@example.com" }],
      ["a homoglyph domain", { ...base, email: "new@\u0435xample.com" }],
      ["a display name with the address", { ...base, email: "Eve <eve@example.com>" }],
      ["two addresses", { ...base, email: "new@example.com, eve@example.com" }],
      ["an address as an array", { ...base, email: ["new@example.com"] }],
      ["a line break in the name", { ...base, name: "Ada\r\nBcc: all@example.com" }],
      ["a control character in the name", { ...base, name: "Ada\u001b[31m" }],
      ["a name over 200 characters", { ...base, name: "\u00e9".repeat(300) }],
      ["a line break in a slug", { ...base, newsletters: ["daily\r\nX-Evil: 1"] }],
      ["a homoglyph slug", { ...base, newsletters: ["d\u0430ily"] }],
      ["21 newsletters", { ...base, newsletters: Array.from({ length: 21 }, (_, i) => `n${i}`) }],
      ["a fractional account", { ...base, account_id: 1.5 }],
      ["a negative account", { ...base, account_id: -1 }],
      ["an account beyond 32 bits", { ...base, account_id: 2 ** 31 }],
      ["an account as an exponent", { ...base, account_id: "1e3" }],
      ["an account as an object", { ...base, account_id: { $gt: 0 } }],
      ["the NUL character in the name", { ...base, name: "Ada\u0000" }],
      ["an unpaired surrogate in the address", { ...base, email: "new\ud800@example.com" }],
    ];
    for (const [what, body] of cases) await expectRefused(await json(body), 400, what);
    expect(await snapshot(f.db)).toBe(before);
  });

  it("ignores fields it does not know: they cannot confirm, verify or pick the consent source", async () => {
    const f = await hostileSetup();
    const known = { account_id: f.account.id, email: "new@example.com", newsletters: ["daily"] };
    const extra = {
      status: "ACTIVE",
      confirmed: true,
      emailVerified: true,
      email_verified: true,
      consentSource: "dashboard",
      source: "dashboard",
      constructor: { prototype: { isAdmin: true } },
    };
    // "__proto__" as JSON text: an own key after JSON.parse, which must not reach any prototype.
    const body = `${JSON.stringify({ ...known, ...extra }).slice(0, -1)},"__proto__":{"isAdmin":true}}`;
    const res = await subscribe(body, { "content-type": "application/json" });
    expect(res.status).toBe(202);
    const member = await f.db.member.findFirstOrThrow({ where: { accountId: f.account.id, email: "new@example.com" } });
    expect(member.emailVerified).toBe(false);
    expect(await f.db.newsletterSubscription.findFirstOrThrow({ where: { memberId: member.id } })).toMatchObject({
      status: "PENDING",
      consentSource: "widget",
      confirmedAt: null,
    });
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it("for another account's newsletter is 404 and writes nothing", async () => {
    const f = await hostileSetup();
    const other = await createTestPublisher(f.db, { domain: null });
    await insertTestNewsletter(f.db, other.id, { slug: "only-there" });
    const before = await snapshot(f.db);
    await expectRefused(
      await json({ account_id: f.account.id, email: "new@example.com", newsletters: ["only-there"] }),
      404,
      "a slug of another account",
    );
    expect(await snapshot(f.db)).toBe(before);
  });
});

describe("the member API", () => {
  it("refuses a missing or forged session, bad slugs and bad bodies, changing nothing", async () => {
    const f = await hostileSetup();
    await insertTestNewsletter(f.db, f.other.id, { slug: "only-elsewhere" });
    const before = await snapshot(f.db);
    const put = (slug: string, body: BodyInit | null, headers: Record<string, string>) => {
      forgetRateLimits();
      return MEMBER_PUT(
        new Request(`http://localhost/api/member/newsletters/${encodeURIComponent(slug)}`, {
          method: "PUT",
          headers: { host: "localhost", "X-QT-AUTH": f.memberSession, ...headers },
          body,
        }),
        { params: Promise.resolve({ slug }) },
      );
    };
    const ct = { "content-type": "application/json" };
    const off = JSON.stringify({ subscribed: false });
    const cases: [string, Response, number][] = [
      ["no session", await put("daily", off, { ...ct, "X-QT-AUTH": "" }), 401],
      ["a forged session", await put("daily", off, { ...ct, "X-QT-AUTH": `${f.memberSession.slice(0, -2)}xx` }), 401],
      ["a 10 kB session", await put("daily", off, { ...ct, "X-QT-AUTH": "a".repeat(10_000) }), 401],
      ["bad percent-encoding in the slug", await put("%E0%A4%A", off, ct), 400],
      ["an over-long slug", await put("a".repeat(10_000), off, ct), 400],
      ["a line break in the slug", await put("daily\r\n", off, ct), 400],
      ["a homoglyph slug", await put("d\u0430ily", off, ct), 400],
      ["an unknown slug", await put("nowhere", off, ct), 404],
      ["a slug only another account has", await put("only-elsewhere", off, ct), 404],
      ["text/plain", await put("daily", off, { "content-type": "text/plain" }), 415],
      ["a form", await put("daily", "subscribed=false", { "content-type": "application/x-www-form-urlencoded" }), 415],
      ["malformed JSON", await put("daily", "{", ct), 400],
      ["an array", await put("daily", "[false]", ct), 400],
      ["a string", await put("daily", '"false"', ct), 400],
      ["null", await put("daily", "null", ct), 400],
      ["subscribed as a string", await put("daily", JSON.stringify({ subscribed: "false" }), ct), 400],
      ["subscribed as 0", await put("daily", JSON.stringify({ subscribed: 0 }), ct), 400],
      ["nested 10,000 deep", await put("daily", `${"[".repeat(10_000)}${"]".repeat(10_000)}`, ct), 413],
      ["nested 500 deep", await put("daily", `${"[".repeat(500)}${"]".repeat(500)}`, ct), 400],
      ["over 1 kB", await put("daily", JSON.stringify({ subscribed: false, pad: "x".repeat(2000) }), ct), 413],
    ];
    for (const [what, res, status] of cases) await expectRefused(res, status, what);

    // A session of this account on another publisher's host is no session there.
    await createTestPublisher(f.db, { domain: "other.example" });
    await expectRefused(await put("daily", off, { ...ct, host: "other.example" }), 401, "another publisher's host");

    const list = MEMBER_LIST(
      new Request("http://localhost/api/member/newsletters", { headers: { host: "localhost", "X-QT-AUTH": "nope" } }),
      { params: Promise.resolve({}) },
    );
    await expectRefused(await list, 401, "the list without a session");
    expect(await snapshot(f.db)).toBe(before);
  });

  it("ignores fields it does not know: an unverified reader stays pending", async () => {
    const f = await hostileSetup();
    const carol = await f.db.member.create({
      data: {
        accountId: f.account.id,
        name: "Carol",
        email: "carol@example.com",
        emailVerified: false,
        passwordHash: "-",
      },
    });
    const { token } = await createMemberSession(f.db, { memberId: carol.id, now: new Date(), days: 1 });
    const res = await call(
      MEMBER_PUT,
      "PUT",
      "/api/member/newsletters/weekly",
      { slug: "weekly" },
      { subscribed: true, status: "active", emailVerified: true, source: "dashboard", memberId: f.ada.id },
      { "X-QT-AUTH": token },
    );
    expect(res.status).toBe(200);
    const row = await f.db.newsletterSubscription.findFirstOrThrow({
      where: { newsletterId: f.weekly.id, memberId: carol.id },
    });
    expect(row).toMatchObject({ status: "PENDING", consentSource: "self_service" });
    expect(await f.db.newsletterSubscription.count({ where: { memberId: f.ada.id, newsletterId: f.weekly.id } })).toBe(
      0,
    );
  });
});

describe("bounce reports", () => {
  it("without the right server key are 401, and malformed ones 400/413/415, changing nothing", async () => {
    const f = await hostileSetup();
    const { key } = await createApiKey(f.db, { accountId: f.account.id, kind: "SERVER", name: "mailer" });
    const { key: otherKey } = await createApiKey(f.db, { accountId: f.other.id, kind: "SERVER", name: "mailer" });
    const { key: clientKey } = await createApiKey(f.db, { accountId: f.account.id, kind: "CLIENT", name: "site" });
    const before = await snapshot(f.db);
    const report = (body: BodyInit | null, headers: Record<string, string>) => {
      forgetRateLimits();
      return bouncesRoute.POST(
        new Request("http://localhost/api/v1/newsletters/bounces", {
          method: "POST",
          headers: { host: "localhost", ...headers },
          body,
        }),
        { params: Promise.resolve({}) },
      );
    };
    const ct = { "content-type": "application/json" };
    const valid = JSON.stringify({ bounces: [{ email: f.ada.email, type: "complaint" }] });
    const authCases: [string, Record<string, string>][] = [
      ["no key", ct],
      ["an empty key", { ...ct, "X-SUBAUTH": "" }],
      ["a wrong key", { ...ct, "X-SUBAUTH": `${key.slice(0, -2)}xx` }],
      ["a 10 kB key", { ...ct, "X-SUBAUTH": "k".repeat(10_000) }],
      ["the client key", { ...ct, "X-SUBAUTH": clientKey }],
      ["the key as a bearer token", { ...ct, authorization: `Bearer ${key}` }],
    ];
    for (const [what, headers] of authCases) await expectRefused(await report(valid, headers), 401, what);

    const auth = { ...ct, "X-SUBAUTH": key };
    const cases: [string, BodyInit, Record<string, string>, number][] = [
      ["text/plain", valid, { "X-SUBAUTH": key, "content-type": "text/plain" }, 415],
      ["no content type", valid, { "X-SUBAUTH": key }, 415],
      ["malformed JSON", "{", auth, 400],
      ["an array", JSON.stringify([{ email: f.ada.email, type: "bounce" }]), auth, 400],
      ["a string", '"bounce"', auth, 400],
      ["null", "null", auth, 400],
      ["no reports", JSON.stringify({ bounces: [] }), auth, 400],
      [
        "1,001 reports",
        JSON.stringify({
          bounces: Array.from({ length: 1001 }, (_, i) => ({ email: `r${i}@example.com`, type: "bounce" })),
        }),
        auth,
        400,
      ],
      ["a bad type", JSON.stringify({ bounces: [{ email: f.ada.email, type: "soft" }] }), auth, 400],
      [
        "a line break in the address",
        JSON.stringify({ bounces: [{ email: `${f.ada.email}\r\nX: 1`, type: "bounce" }] }),
        auth,
        400,
      ],
      [
        "a homoglyph address",
        JSON.stringify({ bounces: [{ email: f.ada.email.replace("e", "\u0435"), type: "bounce" }] }),
        auth,
        400,
      ],
      [
        "a 10 kB detail",
        JSON.stringify({ bounces: [{ email: f.ada.email, type: "bounce", detail: "x".repeat(10_000) }] }),
        auth,
        400,
      ],
      [
        "one bad report among good ones",
        JSON.stringify({
          bounces: [
            { email: f.ada.email, type: "bounce" },
            { email: "nope", type: "bounce" },
          ],
        }),
        auth,
        400,
      ],
      ["nested 10,000 deep", `{"bounces":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, auth, 400],
      [
        "over 256 kB",
        JSON.stringify({ bounces: [{ email: f.ada.email, type: "bounce", detail: "x".repeat(300_000) }] }),
        auth,
        413,
      ],
    ];
    for (const [what, body, headers, status] of cases) await expectRefused(await report(body, headers), status, what);
    expect(await snapshot(f.db)).toBe(before);

    // Another account's key reports for that account only: this account's reader is untouched.
    const elsewhere = await report(valid, { ...ct, "X-SUBAUTH": otherKey });
    expect(elsewhere.status).toBe(200);
    expect(await f.db.newsletterSubscription.findFirstOrThrow({ where: { id: f.adaDaily.id } })).toMatchObject({
      status: "ACTIVE",
    });
    expect(await f.db.emailSuppression.count({ where: { accountId: f.account.id } })).toBe(0);
  });
});
