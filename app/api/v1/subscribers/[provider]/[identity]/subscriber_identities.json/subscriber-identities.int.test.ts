/** GET|POST /api/v1/subscribers/{provider}/{identity}/subscriber_identities.json (server API, X-SUBAUTH). */
import { describe, expect, it } from "vitest";

import { createApiKey } from "@/server/accounts/api-keys";
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

  it("refuses an identity held by another subscriber (409), and a second e-mail", async () => {
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
    res = await add(key, "email", "b@example.com", {
      subscriber_identity: { provider: "email", value: "c@example.com" },
    });
    expect(res.status).toBe(409);
    expect(((await res.json()) as Err).error.message).toMatch(/already has an e-mail/);
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
