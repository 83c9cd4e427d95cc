import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";

import { ownWritesHeard } from "../cache/process-cache";
import { getDb, type Db } from "../db";
import { authenticatePublisherJwt, verifyPublisherJwt } from "./api-auth";

describe("authenticatePublisherJwt: the account id from the path", () => {
  it("takes the id only in canonical decimal digits and within the id range", async () => {
    const db = await getDb();
    const account = await db.account.create({
      data: { slug: `p${Math.random().toString(36).slice(2, 8)}`, name: "Gazette", jwtSecret: "x".repeat(32) },
    });
    const id = account.id;
    expect((await authenticatePublisherJwt(db, String(id), null, { user: "optional" })).account.id).toBe(id);
    const spellings = [
      `0x${id.toString(16)}`,
      `${id}e0`,
      `+${id}`,
      ` ${id}`,
      `${id} `,
      `0${id}`,
      `${id}.0`,
      "2147483648",
      "99999999999999999999",
    ];
    const outcomes: string[] = [];
    for (const spelling of spellings) {
      const outcome = await authenticatePublisherJwt(db, spelling, null, { user: "optional" }).then(
        () => "found",
        (error: unknown) => (error as { code?: string }).code ?? String(error),
      );
      if (outcome !== "BAD_REQUEST") outcomes.push(`${JSON.stringify(spelling)}: ${outcome}`);
    }
    expect(outcomes).toEqual([]);
  });
});

describe("verifyPublisherJwt: tokens verified once are remembered", () => {
  async function account(db: Db) {
    return db.account.create({
      data: { slug: `v${Math.random().toString(36).slice(2, 8)}`, name: "Gazette", jwtSecret: "s".repeat(32) },
    });
  }
  const sign = (secret: string, claims: Record<string, unknown>, exp: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(secret));
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => "ok",
      (error: unknown) => `${(error as { code?: string }).code}: ${(error as Error).message}`,
    );

  it("answers a remembered token until its exp (30 s of tolerance), then refuses it as expired", async () => {
    const db = await getDb();
    const { id } = await account(db);
    const now = new Date("2026-11-24T10:00:00Z");
    const exp = now.getTime() / 1000 + 60;
    const token = await sign("s".repeat(32), { id: "r1", name: "Ann" }, exp);
    expect((await verifyPublisherJwt(db, id, token, now)).id).toBe("r1");
    expect((await verifyPublisherJwt(db, id, token, new Date(now.getTime() + 89_000))).name).toBe("Ann");
    expect(await code(verifyPublisherJwt(db, id, token, new Date(now.getTime() + 91_000)))).toBe(
      "UNAUTHORIZED: The user token has expired.",
    );
  });

  it("verifies again under another secret, and never takes a token that differs from the one verified", async () => {
    const db = await getDb();
    const { id } = await account(db);
    const now = new Date();
    const exp = Math.floor(now.getTime() / 1000) + 600;
    const token = await sign("s".repeat(32), { id: "r2", name: "Ben" }, exp);
    expect((await verifyPublisherJwt(db, id, token, now)).id).toBe("r2");
    // The same claims under another key, and the kept token's signature altered: refused.
    const forged = await sign("f".repeat(32), { id: "r2", name: "Ben" }, exp);
    expect(await code(verifyPublisherJwt(db, id, forged, now))).toBe("UNAUTHORIZED: The user token is not valid.");
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect(await code(verifyPublisherJwt(db, id, tampered, now))).toBe("UNAUTHORIZED: The user token is not valid.");
    // The account's secret changes (by hand: the database announces it to the caches): the kept token no longer passes.
    await db.account.update({ where: { id }, data: { jwtSecret: "n".repeat(32) } });
    await ownWritesHeard(db);
    expect(await code(verifyPublisherJwt(db, id, token, now))).toBe("UNAUTHORIZED: The user token is not valid.");
  });

  it("reads a remembered token's user once: the same frozen user each time, the name still required where asked", async () => {
    const db = await getDb();
    const { id } = await account(db);
    const now = new Date();
    const exp = Math.floor(now.getTime() / 1000) + 600;
    const named = await sign("s".repeat(32), { id: 7, name: "Cy", "avatar-url": "https://a.test/c.png" }, exp);
    const first = await verifyPublisherJwt(db, id, named, now);
    expect(first).toEqual({ id: "7", name: "Cy", email: null, avatarUrl: "https://a.test/c.png", provider: null });
    expect(await verifyPublisherJwt(db, id, named, now, { requireName: true })).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Without a name: accepted where none is asked, refused where one is, the second time too.
    const nameless = await sign("s".repeat(32), { id: "r3" }, exp);
    expect((await verifyPublisherJwt(db, id, nameless, now)).name).toBeNull();
    for (let n = 0; n < 2; n++) {
      expect(await code(verifyPublisherJwt(db, id, nameless, now, { requireName: true }))).toBe(
        "UNAUTHORIZED: The user token lacks the name claim.",
      );
    }
    // Without an id: refused every time, though its signature passed and it is remembered.
    const idless = await sign("s".repeat(32), { name: "Dee" }, exp);
    for (let n = 0; n < 2; n++) {
      expect(await code(verifyPublisherJwt(db, id, idless, now))).toBe(
        "UNAUTHORIZED: The user token lacks the id claim.",
      );
    }
  });
});
