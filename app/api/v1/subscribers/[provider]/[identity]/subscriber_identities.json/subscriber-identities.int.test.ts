/** GET|POST /api/v1/subscribers/{provider}/{identity}/subscriber_identities.json (server API, X-SUBAUTH). */
import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/auth/api-keys";
import { getDb } from "@/server/db";
import { findOrCreateJwtMember } from "@/server/members/identities";
import { call } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { GET, POST } from "./route";

type List = { subscriber_identities: { provider: string; value: string }[] };
type Err = { error: { code: string; message: string; details?: { field: string }[] } };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "back end" });
  return { db, account, key };
}

const path = (provider: string, identity: string, query = "") =>
  `/api/v1/subscribers/${provider}/${encodeURIComponent(identity)}/subscriber_identities.json${query}`;

function list(key: string | null, provider: string, identity: string, query = "") {
  return call(
    GET,
    "GET",
    path(provider, identity, query),
    { provider, identity },
    undefined,
    key ? { "x-subauth": key } : {},
  );
}

function add(key: string, provider: string, identity: string, body: unknown) {
  return call(POST, "POST", path(provider, identity), { provider, identity }, body, { "x-subauth": key });
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("subscriber_identities.json", () => {
  it("creates the subscriber at an unknown identity on POST, adds identities idempotently, and lists them", async () => {
    const { key } = await setup();
    expect((await list(key, "email", "ada@example.com")).status).toBe(404);
    let res = await add(key, "email", "Ada@Example.com", {
      subscriber_identity: { provider: "phone", value: "+919876543210" },
    });
    expect(res.status).toBe(200);
    const expected = [
      { provider: "email", value: "ada@example.com" },
      { provider: "phone", value: "+919876543210" },
    ];
    expect(await res.json()).toEqual({ subscriber_identities: expected });
    res = await add(key, "phone", "+919876543210", {
      subscriber_identity: { provider: "email", value: "ADA@example.com" },
    });
    expect(await res.json()).toEqual({ subscriber_identities: expected });
    res = await add(key, "email", "ada@example.com", { subscriber_identity: { provider: "blog_cms", value: "wp-7" } });
    expect(((await res.json()) as List).subscriber_identities).toEqual([
      ...expected,
      { provider: "blog_cms", value: "wp-7" },
    ]);
    for (const [p, v] of [
      ["email", "ADA@EXAMPLE.COM"],
      ["phone", "+919876543210"],
      ["blog_cms", "wp-7"],
    ] as const) {
      const got = await list(key, p, v);
      expect(got.status).toBe(200);
      expect(((await got.json()) as List).subscriber_identities).toHaveLength(3);
    }
  });

  it("falls back to the alternate identity, and 404s when neither names a subscriber", async () => {
    const { key } = await setup();
    await add(key, "email", "bo@example.com", { subscriber_identity: { provider: "platform", value: "p-1" } });
    const res = await list(key, "social_a", "fb-1", "?alternate_provider=platform&alternate_identity=p-1");
    expect(res.status).toBe(200);
    expect(((await res.json()) as List).subscriber_identities[0]).toEqual({
      provider: "email",
      value: "bo@example.com",
    });
    expect((await list(key, "social_a", "fb-1", "?alternate_provider=platform&alternate_identity=p-2")).status).toBe(
      404,
    );
    // POST with the alternate in the body adds to the subscriber found there, creating nobody at the primary.
    const added = await add(key, "social_a", "fb-1", {
      subscriber_identity: { provider: "social_a", value: "fb-1" },
      alternate_provider: "platform",
      alternate_identity: "p-1",
    });
    expect(((await added.json()) as List).subscriber_identities.map((i) => i.provider)).toEqual([
      "email",
      "platform",
      "social_a",
    ]);
  });

  it("refuses an identity held by another subscriber (409), whichever e-mail of theirs it is", async () => {
    const { key } = await setup();
    await add(key, "email", "a@example.com", { subscriber_identity: { provider: "platform", value: "shared" } });
    let res = await add(key, "email", "b@example.com", {
      subscriber_identity: { provider: "platform", value: "shared" },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Err).error.message).toMatch(/another subscriber/);
    res = await add(key, "email", "b@example.com", {
      subscriber_identity: { provider: "email", value: "a@example.com" },
    });
    expect(res.status).toBe(409);
    // a@example.com's second e-mail is theirs too.
    res = await add(key, "email", "a@example.com", {
      subscriber_identity: { provider: "email", value: "a.second@example.com" },
    });
    expect(res.status).toBe(200);
    res = await add(key, "email", "b@example.com", {
      subscriber_identity: { provider: "email", value: "A.Second@example.com" },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Err).error.message).toMatch(/another subscriber/);
    // Nor can a new subscriber be made at it: the path finds its holder.
    res = await add(key, "email", "a.second@example.com", {
      subscriber_identity: { provider: "platform", value: "shared" },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as List).subscriber_identities[0]).toEqual({
      provider: "email",
      value: "a@example.com",
    });
  });

  it("adds a second e-mail and a social identity, and finds the one subscriber by any of them", async () => {
    const { db, account, key } = await setup();
    let res = await add(key, "email", "ada@example.com", {
      subscriber_identity: { provider: "email", value: "Ada.Work@Example.org" },
    });
    expect(res.status).toBe(200);
    res = await add(key, "email", "ada.work@example.org", {
      subscriber_identity: { provider: "social_a", value: "fb-ada" },
    });
    expect(res.status).toBe(200);
    const all = [
      { provider: "email", value: "ada@example.com" },
      { provider: "email", value: "ada.work@example.org" },
      { provider: "social_a", value: "fb-ada" },
    ];
    expect(await res.json()).toEqual({ subscriber_identities: all });
    // Adding one it holds again changes nothing.
    res = await add(key, "social_a", "fb-ada", {
      subscriber_identity: { provider: "email", value: "ADA.work@example.org" },
    });
    expect(await res.json()).toEqual({ subscriber_identities: all });
    for (const [p, v] of [
      ["email", "ada@example.com"],
      ["email", "ADA.WORK@example.org"],
      ["social_a", "fb-ada"],
    ] as const) {
      const got = await list(key, p, v);
      expect(got.status, `${p}/${v}`).toBe(200);
      expect(await got.json()).toEqual({ subscriber_identities: all });
    }
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(1);
    // The sign-in e-mail stays the first.
    expect((await db.member.findFirstOrThrow({ where: { accountId: account.id } })).email).toBe("ada@example.com");
  });

  it("gives one of two parallel adds of one identity to two subscribers, the other 409", async () => {
    const { db, account, key } = await setup();
    for (const who of ["one@example.com", "two@example.com"]) {
      await add(key, "email", who, { subscriber_identity: { provider: "platform", value: who } });
    }
    for (const identity of [
      { provider: "email", value: "contested@example.com" },
      { provider: "social_b", value: "tw-contested" },
    ]) {
      const results = await Promise.all(
        ["one@example.com", "two@example.com"].map((who) => add(key, "email", who, { subscriber_identity: identity })),
      );
      expect(results.map((r) => r.status).sort(), identity.provider).toEqual([200, 409]);
      const holders = await db.memberIdentity.findMany({
        where: { accountId: account.id, provider: identity.provider, externalId: identity.value },
      });
      expect(holders).toHaveLength(1);
      const loser = results.find((r) => r.status === 409)!;
      expect(((await loser.json()) as Err).error.message).toMatch(/another subscriber/);
    }
    // A subscriber without an e-mail (its first becomes its sign-in e-mail) against one adding a
    // second e-mail: still one holder.
    await add(key, "platform", "no-mail", { subscriber_identity: { provider: "social_a", value: "no-mail" } });
    const results = await Promise.all([
      add(key, "platform", "no-mail", { subscriber_identity: { provider: "email", value: "both@example.com" } }),
      add(key, "email", "one@example.com", { subscriber_identity: { provider: "email", value: "both@example.com" } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const asSignIn = await db.member.count({ where: { accountId: account.id, email: "both@example.com" } });
    const asRow = await db.memberIdentity.count({
      where: { accountId: account.id, provider: "email", externalId: "both@example.com" },
    });
    expect(asSignIn + asRow).toBe(1);
  });

  it("makes one row of two parallel adds, and one subscriber of two parallel first adds", async () => {
    const { db, account, key } = await setup();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        add(key, "email", "race@example.com", { subscriber_identity: { provider: "platform", value: "race-1" } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await db.member.count({ where: { accountId: account.id, email: "race@example.com" } })).toBe(1);
    expect(await db.memberIdentity.count({ where: { accountId: account.id, provider: "platform" } })).toBe(1);
  });

  it("keeps accounts apart", async () => {
    const { key } = await setup();
    const other = await setup();
    await add(other.key, "email", "x@example.com", { subscriber_identity: { provider: "platform", value: "x" } });
    expect((await list(key, "email", "x@example.com")).status).toBe(404);
    expect((await list(key, "platform", "x")).status).toBe(404);
    // The same identity in this account is a different subscriber, not a conflict.
    expect(
      (await add(key, "email", "y@example.com", { subscriber_identity: { provider: "platform", value: "x" } })).status,
    ).toBe(200);
  });

  it("validates the provider and identity (400) and needs a server key (401)", async () => {
    const { db, account, key } = await setup();
    for (const [p, v] of [
      ["Email", "a@example.com"],
      ["email", "not-an-email"],
      ["phone", "98765"],
      ["phone", "+0123456789"],
      ["e", "x"],
    ]) {
      const res = await list(key, p!, v!);
      expect(res.status, `${p}/${v}`).toBe(400);
    }
    let res = await add(key, "email", "a@example.com", { subscriber_identity: { provider: "phone", value: "12345" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Err).error.details?.[0]?.field).toBe("body.subscriber_identity.value");
    res = await add(key, "email", "a@example.com", { subscriber_identity: { provider: "x y", value: "1" } });
    expect(res.status).toBe(400);
    res = await list(key, "email", "a@example.com", "?alternate_provider=platform");
    expect(res.status).toBe(400);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(0);
    expect((await list(null, "email", "a@example.com")).status).toBe(401);
    expect((await list("mh_sk_wrong", "email", "a@example.com")).status).toBe(401);
    const { key: clientKey } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
    expect((await list(clientKey, "email", "a@example.com")).status).toBe(401);
  });

  it("finds a publisher-JWT reader by its id, and by the provider its JWT claimed", async () => {
    const { db, account, key } = await setup();
    const user = { id: "42", name: "Wp Reader", email: "wp@example.com", avatarUrl: null, provider: "wordpress" };
    const member = await findOrCreateJwtMember(db, {
      accountId: account.id,
      user,
      now: new Date(),
      linkProviderClaim: true,
    });
    const res = await list(key, "wordpress", "42");
    expect(((await res.json()) as List).subscriber_identities).toEqual([
      { provider: "publisher", value: "42" },
      { provider: "wordpress", value: "42" },
    ]);
    // The claimed e-mail is not an identity (a claim does not prove the address) until the back end adds it.
    expect((await list(key, "email", "wp@example.com")).status).toBe(404);
    await add(key, "publisher", "42", { subscriber_identity: { provider: "email", value: "wp@example.com" } });
    expect((await db.member.findUniqueOrThrow({ where: { id: member.id } })).email).toBe("wp@example.com");
    expect((await list(key, "email", "wp@example.com")).status).toBe(200);
  });
});
