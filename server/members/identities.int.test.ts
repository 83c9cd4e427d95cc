/** Publisher-JWT readers map to one member per (account, id), also when first seen twice at once. */
import { describe, expect, it } from "vitest";

import type { ApiUser } from "@/server/auth/api-auth";
import { verifyPassword } from "@/server/auth/password";
import { getDb } from "@/server/db";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { commentAuthorsOf, findJwtMember, findOrCreateJwtMember, findOrCreateMemberByIdentity } from "./identities";

const user = (over: Partial<ApiUser> = {}): ApiUser => ({
  id: "reader-42",
  name: "Ada",
  email: "Ada@Example.com",
  avatarUrl: "https://cdn.example.com/ada.png",
  provider: null,
  ...over,
});

describe("findOrCreateJwtMember", () => {
  it("reads a returning reader as Prisma's typed read gives it, every field", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const now = new Date("2026-11-24T10:11:12.345Z");
    const created = await findOrCreateJwtMember(db, { accountId: account.id, user: user(), now });
    // Fields of every kind set: text, null, boolean, JSON, timestamps.
    await db.member.update({
      where: { id: created.id },
      data: { bio: "Reads the council pages", emailVerified: true, metadata: { plan: "gold", n: [1, 2] } },
    });
    const typed = await db.member.findUniqueOrThrow({ where: { id: created.id } });
    const returning = await findOrCreateJwtMember(db, { accountId: account.id, user: user(), now });
    expect(returning).toStrictEqual(typed);
    expect(await findJwtMember(db, { accountId: account.id, userId: "reader-42" })).toStrictEqual(typed);
    expect(await findJwtMember(db, { accountId: account.id, userId: "nobody" })).toBeNull();
  });

  it("creates the member once, then finds it and follows the claims", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const now = new Date();
    const first = await findOrCreateJwtMember(db, { accountId: account.id, user: user(), now });
    expect(first).toMatchObject({
      accountId: account.id,
      name: "Ada",
      avatarUrl: "https://cdn.example.com/ada.png",
      communicationEmail: "ada@example.com",
      source: "publisher",
    });
    expect(first.email).toMatch(/^jwt-[0-9a-f-]+@identities\.invalid$/);
    const again = await findOrCreateJwtMember(db, {
      accountId: account.id,
      user: user({ name: "Ada L.", avatarUrl: null, email: null }),
      now,
    });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ name: "Ada L.", avatarUrl: null, communicationEmail: null });
    expect(await db.member.count()).toBe(1);
    expect(await db.memberIdentity.findMany({ select: { provider: true, externalId: true, email: true } })).toEqual([
      { provider: "publisher", externalId: "reader-42", email: null },
    ]);
    expect(await commentAuthorsOf(db, [first.id, first.id + 999, first.id])).toEqual(
      new Map([
        [
          first.id,
          {
            author: { id: first.id, name: "Ada L.", avatarUrl: null, username: null, bio: null, source: "publisher" },
            jwtIds: ["reader-42"],
          },
        ],
      ]),
    );
  });

  it("cannot sign in with a password", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const member = await findOrCreateJwtMember(db, { accountId: account.id, user: user(), now: new Date() });
    const row = await db.member.findUniqueOrThrow({ where: { id: member.id }, omit: { passwordHash: false } });
    expect(await verifyPassword("", row.passwordHash)).toBe(false);
  });

  it("keeps accounts apart, and takes no e-mail from a password member", async () => {
    const db = await getDb();
    const a = await createTestPublisher(db);
    const b = await createTestPublisher(db);
    await db.member.create({ data: { accountId: a.id, name: "Ada", email: "ada@example.com", passwordHash: "x" } });
    const inA = await findOrCreateJwtMember(db, { accountId: a.id, user: user(), now: new Date() });
    const inB = await findOrCreateJwtMember(db, { accountId: b.id, user: user(), now: new Date() });
    expect(inA.id).not.toBe(inB.id);
    expect(inA.email).not.toBe("ada@example.com");
    expect(await db.member.count()).toBe(3);
  });

  it("makes one member when the same reader is first seen by several requests at once", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const members = await Promise.all(
      Array.from({ length: 5 }, () =>
        findOrCreateJwtMember(db, { accountId: account.id, user: user(), now: new Date() }),
      ),
    );
    expect(new Set(members.map((m) => m.id)).size).toBe(1);
    expect(await db.member.count()).toBe(1);
    expect(await db.memberIdentity.count()).toBe(1);
  });
});

describe("findOrCreateMemberByIdentity", () => {
  const create = { name: "Bo", email: "placeholder-bo@identities.invalid", source: "test" };

  it("finds the identity's member, links or answers a member known otherwise, else creates one", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const now = new Date();
    const key = { accountId: account.id, provider: "test", externalId: "bo" };
    const made = await findOrCreateMemberByIdentity(db, { key, now, create, identityEmail: "bo@example.com" });
    expect(made.created).toBe(true);
    expect(made.member).toMatchObject({ name: "Bo", email: create.email, source: "test" });
    const found = await findOrCreateMemberByIdentity(db, { key, now, create, identityEmail: "bo@elsewhere.com" });
    expect(found).toEqual({ member: made.member, created: false });
    expect(await db.memberIdentity.findMany({ select: { externalId: true, email: true } })).toEqual([
      { externalId: "bo", email: "bo@elsewhere.com" },
    ]);
    // Known otherwise: answered as is, or given the identity too.
    const known = { member: made.member, link: false };
    const asIs = await findOrCreateMemberByIdentity(db, {
      key: { ...key, externalId: "bo-2" },
      now,
      create,
      otherwise: () => Promise.resolve(known),
    });
    expect(asIs).toEqual({ member: made.member, created: false });
    expect(await db.memberIdentity.count()).toBe(1);
    const seen: string[] = [];
    const linked = await findOrCreateMemberByIdentity(db, {
      key: { ...key, externalId: "bo-3" },
      now,
      create,
      otherwise: () => Promise.resolve({ ...known, link: true }),
      then: (_tx, member, how) => {
        seen.push(how);
        return Promise.resolve({ ...member, name: "Bo B." });
      },
    });
    expect(linked).toEqual({ member: { ...made.member, name: "Bo B." }, created: false });
    expect(seen).toEqual(["linked"]);
    expect(
      (await db.memberIdentity.findMany({ orderBy: { id: "asc" } })).map((i) => [i.externalId, i.memberId]),
    ).toEqual([
      ["bo", made.member.id],
      ["bo-3", made.member.id],
    ]);
    expect(await db.member.count()).toBe(1);
  });

  it("finds and creates by sign-in e-mail, with no identity row; one member for first calls at once", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const now = new Date();
    const key = { accountId: account.id, email: "cy@example.com" };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        findOrCreateMemberByIdentity(db, { key, now, create: { ...create, name: "Cy" } }),
      ),
    );
    expect(new Set(results.map((r) => r.member.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.member).toMatchObject({ name: "Cy", email: "cy@example.com" });
    expect(await db.member.count()).toBe(1);
    expect(await db.memberIdentity.count()).toBe(0);
  });
});
