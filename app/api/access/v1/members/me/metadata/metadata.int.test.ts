/** GET|POST|PUT /api/access/v1/members/me/metadata (client API: key + accesstype_jwt/svc_jwt). */
import { describe, expect, it } from "vitest";

import { POST as COMMENT } from "@/app/api/v1/accounts/[account_id]/pages/[encoded_url]/comments.json/route";
import { GET as IDENTITIES } from "@/app/api/v1/subscribers/[provider]/[identity]/subscriber_identities.json/route";
import { createApiKey } from "@/server/auth/api-keys";
import { getDb } from "@/server/db";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { GET, POST, PUT } from "./route";

type Meta = {
  address: Record<string, string> | null;
  phone_number: string | null;
  other: Record<string, unknown> | null;
};
type Err = { error: { code: string; details?: { field: string; issue: string }[] } };

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const { key } = await createApiKey(db, { accountId: account.id, kind: "CLIENT", name: "web" });
  const { key: serverKey } = await createApiKey(db, { accountId: account.id, kind: "SERVER", name: "back end" });
  return { db, account, key, serverKey };
}

const q = (key: string, jwt?: string, param = "accesstype_jwt") =>
  `/api/access/v1/members/me/metadata?key=${key}${jwt ? `&${param}=${jwt}` : ""}`;

async function get(key: string, jwt?: string, param?: string) {
  const res = await call(GET, "GET", q(key, jwt, param), {});
  expect(res.status).toBe(200);
  return (await res.json()) as Meta;
}

describe("members/me/metadata", () => {
  it("keeps only the six address keys, merges on POST, replaces on PUT, and answers an empty body", async () => {
    const { key } = await setup();
    const jwt = await readerJwt({ id: "r-1", name: "Ada", email: "ada@example.com" });
    let res = await call(
      POST,
      "POST",
      q(key, jwt),
      {},
      {
        address: { line1: "1 Main St", city: "Pune", pincode: 411001, planet: "Earth", state: "  " },
        phone_number: "+919876543210",
        other: { newsletter: true, tags: ["a"] },
        unknown_top_level: 1,
      },
    );
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await get(key, jwt)).toEqual({
      address: { line1: "1 Main St", city: "Pune", pincode: "411001" },
      phone_number: "+919876543210",
      other: { newsletter: true, tags: ["a"] },
    });
    res = await call(POST, "POST", q(key, jwt), {}, { other: { newsletter: false } });
    expect(res.status).toBe(204);
    expect(await get(key, jwt)).toMatchObject({ phone_number: "+919876543210", other: { newsletter: false } });
    res = await call(PUT, "PUT", q(key, jwt, "svc_jwt"), {}, { phone_number: "+14155550123" });
    expect(res.status).toBe(204);
    expect(await get(key, jwt, "svc_jwt")).toEqual({ address: null, phone_number: "+14155550123", other: null });
  });

  it("refuses a phone number not in E.164 and a too-large other, changing nothing", async () => {
    const { key } = await setup();
    const jwt = await readerJwt({ id: "r-2", name: "Bo" });
    await call(PUT, "PUT", q(key, jwt), {}, { phone_number: "+14155550123" });
    for (const body of [
      { phone_number: "9876543210" },
      { phone_number: "+0 98765" },
      { other: { blob: "x".repeat(9000) } },
      { address: "1 Main St" },
    ]) {
      const res = await call(POST, "POST", q(key, jwt), {}, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(((await res.json()) as Err).error.code).toBe("BAD_REQUEST");
    }
    expect((await get(key, jwt)).phone_number).toBe("+14155550123");
  });

  it("needs the key (401), a JWT to write (401); without a JWT GET answers the empty metadata", async () => {
    const { key } = await setup();
    expect(await get(key)).toEqual({ address: null, phone_number: null, other: null });
    expect((await call(POST, "POST", q(key), {}, { phone_number: "+14155550123" })).status).toBe(401);
    const jwt = await readerJwt({ id: "r-3", name: "Cy" });
    expect((await call(GET, "GET", `/api/access/v1/members/me/metadata?accesstype_jwt=${jwt}`, {})).status).toBe(401);
    const bad = await readerJwt({ id: "r-3", name: "Cy" }, { secret: "another-secret-entirely-000000000" });
    expect((await call(PUT, "PUT", q(key, bad), {}, {})).status).toBe(401);
    // A reader never seen: nothing is created by reading.
    expect(await get(key, jwt)).toEqual({ address: null, phone_number: null, other: null });
  });

  it("keeps each account's reader apart: the same JWT id in another account is another reader", async () => {
    const a = await setup();
    const b = await setup();
    const jwt = await readerJwt({ id: "same", name: "Di" });
    await call(PUT, "PUT", q(a.key, jwt), {}, { phone_number: "+14155550123" });
    expect((await get(b.key, jwt)).phone_number).toBeNull();
  });

  it("is the same member as the engagement commenter with the same JWT id, and found by the server API", async () => {
    const { db, account, key, serverKey } = await setup();
    const jwt = await readerJwt({ id: "77", name: "Eve", email: "eve@example.com", provider: "wordpress" });
    const res = await call(
      COMMENT,
      "POST",
      "/x",
      { account_id: String(account.id), encoded_url: pageId("https://news.example.com/a") },
      { comment: { body: { ops: [{ insert: "Hello" }] } }, jwt },
    );
    expect(res.status).toBe(201);
    expect((await call(PUT, "PUT", q(key, jwt), {}, { phone_number: "+14155550123" })).status).toBe(204);
    const comment = await db.comment.findFirstOrThrow({ where: { accountId: account.id } });
    const profile = await db.subscriberProfile.findUniqueOrThrow({ where: { memberId: comment.authorId } });
    expect(profile.metadata).toMatchObject({ phone_number: "+14155550123" });
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(1);
    // The provider claim named the reader a second way, which the back end can use.
    const ids = await call(IDENTITIES, "GET", "/x", { provider: "wordpress", identity: "77" }, undefined, {
      "x-subauth": serverKey,
    });
    expect(await ids.json()).toEqual({
      subscriber_identities: [
        { provider: "publisher", value: "77" },
        { provider: "wordpress", value: "77" },
      ],
    });
  });

  it("makes one reader and one profile of parallel first writes", async () => {
    const { db, account, key } = await setup();
    const jwt = await readerJwt({ id: "para", name: "Flo" });
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => call(POST, "POST", q(key, jwt), {}, { other: { n: i } })),
    );
    expect(results.map((r) => r.status)).toEqual([204, 204, 204, 204]);
    expect(await db.member.count({ where: { accountId: account.id } })).toBe(1);
    expect(await db.subscriberProfile.count({ where: { member: { accountId: account.id } } })).toBe(1);
  });
});
