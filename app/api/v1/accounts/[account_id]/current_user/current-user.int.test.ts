/** GET /api/v1/accounts/{id}/current_user?jwt=: the reader under third-party login, the same member as in comments. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TCommentWire } from "@/server/engagement/comments.schema";
import { call, pageId, readerJwt, unsignedJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { POST as CREATE } from "../pages/[encoded_url]/comments.json/route";
import { GET } from "./route";

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  return { db, id: String(account.id) };
}

const get = (id: string, jwt?: string) =>
  call(GET, "GET", jwt === undefined ? "/x" : `/x?jwt=${encodeURIComponent(jwt)}`, { account_id: id });

describe("GET current_user", () => {
  it("answers the reader of the jwt in the author shape, as the member that comments", async () => {
    const { db, id } = await setup();
    const jwt = await readerJwt({ id: "reader-7", name: "Ada", "avatar-url": "https://cdn.example.com/a.png" });
    const res = await get(id, jwt);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { current_user: { id: number } };
    const member = await db.member.findFirstOrThrow();
    expect(body).toEqual({
      signed_in: true,
      current_user: {
        name: "Ada",
        avatar: "https://cdn.example.com/a.png",
        id: member.id,
        slug: `reader-${member.id}`,
        guest: false,
        bio: "",
        accounts: [],
      },
      is_guest: false,
      provider: null,
    });
    // Asked again, and then commenting: the same member.
    expect(((await (await get(id, jwt)).json()) as { current_user: { id: number } }).current_user.id).toBe(member.id);
    const created = await call(
      CREATE,
      "POST",
      "/x",
      { account_id: id, encoded_url: pageId("https://news.example.com/a") },
      { comment: { body: { ops: [{ insert: "Hi" }] } }, jwt },
    );
    expect(((await created.json()) as { comment: TCommentWire }).comment.author_id).toBe(body.current_user.id);
    expect(await db.member.count()).toBe(1);
  });

  it("takes only an http(s) avatar from the token's claims: a javascript: or data: URL is dropped", async () => {
    const { db, id } = await setup();
    for (const [n, avatar] of [
      "javascript:alert(document.cookie)",
      "data:image/svg+xml,<svg/onload=alert(1)>",
    ].entries()) {
      const jwt = await readerJwt({ id: `reader-x${n}`, name: "Mallory", "avatar-url": avatar });
      const body = (await (await get(id, jwt)).json()) as { current_user: { id: number; avatar: string | null } };
      expect(body.current_user.avatar).toBeNull();
      expect((await db.member.findUniqueOrThrow({ where: { id: body.current_user.id } })).avatarUrl).toBeNull();
    }
    // A web URL is kept, in its normalised form.
    const jwt = await readerJwt({ id: "reader-y", name: "Ada", "avatar-url": "HTTPS://CDN.example.com/a b.png" });
    const body = (await (await get(id, jwt)).json()) as { current_user: { avatar: string | null } };
    expect(body.current_user.avatar).toBeNull(); // a space is refused, not guessed at
    const ok = await readerJwt({ id: "reader-z", name: "Ada", "avatar-url": "HTTPS://CDN.example.com/a.png" });
    expect(((await (await get(id, ok)).json()) as { current_user: { avatar: string } }).current_user.avatar).toBe(
      "https://cdn.example.com/a.png",
    );
  });

  it("answers no user state without a jwt", async () => {
    const { db, id } = await setup();
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ signed_in: false, current_user: null, is_guest: true, provider: null });
    expect(await db.member.count()).toBe(0);
  });

  it("answers 401 to a forged, expired, unsigned or nameless jwt, and 404 to an unknown account", async () => {
    const { db, id } = await setup();
    expect(
      (await get(id, await readerJwt({ id: "r", name: "R" }, { secret: "not-the-shared-key-000000" }))).status,
    ).toBe(401);
    const expired = await readerJwt({ id: "r", name: "R" }, { exp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await get(id, expired)).status).toBe(401);
    expect((await get(id, unsignedJwt({ id: "r", name: "R" }))).status).toBe(401);
    expect((await get(id, await readerJwt({ id: "r" }))).status).toBe(401);
    expect((await get(id, "not-a-jwt")).status).toBe(401);
    expect((await get("999999", await readerJwt())).status).toBe(404);
    expect((await get("01", await readerJwt())).status).toBe(400);
    expect(await db.member.count()).toBe(0);
  });

  it("keeps readers of different accounts apart", async () => {
    const { db, id } = await setup();
    const other = await createTestPublisher(db);
    const jwt = await readerJwt({ id: "same-id", name: "Ada" });
    const a = (await (await get(id, jwt)).json()) as { current_user: { id: number } };
    const b = (await (await get(String(other.id), jwt)).json()) as { current_user: { id: number } };
    expect(a.current_user.id).not.toBe(b.current_user.id);
  });
});
