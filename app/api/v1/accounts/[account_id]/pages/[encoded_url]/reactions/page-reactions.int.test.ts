/** GET .../pages/{b64}/reactions and POST, DELETE .../reactions/{reaction_id}: reactions on the page itself. */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { TPageReactionsWire } from "@/server/engagement/reactions.schema";
import { call, pageId, readerJwt, unsignedJwt } from "@/server/testing/engagement";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { DELETE, POST } from "./[reaction_id]/route";
import { GET } from "./route";

const URL_A = "https://news.example.com/politics/a-story";
const B64 = pageId(URL_A);

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db, { domain: "news.example.com" });
  return { db, id: String(account.id), jwt: await readerJwt({ id: "reader-1", name: "Ada" }) };
}

const params = (id: string, b64: string, reaction: string) => ({
  account_id: id,
  encoded_url: b64,
  reaction_id: reaction,
});
const add = (id: string, b64: string, reaction: string, body: unknown) =>
  call(POST, "POST", "/x", params(id, b64, reaction), body);
const remove = (id: string, b64: string, reaction: string, jwt?: string) =>
  call(DELETE, "DELETE", jwt ? `/x?jwt=${jwt}` : "/x", params(id, b64, reaction));
const read = (id: string, b64: string, jwt?: string) =>
  call(GET, "GET", jwt ? `/x?jwt=${jwt}` : "/x", { account_id: id, encoded_url: b64 });
const body = async (res: Response) => (await res.json()) as TPageReactionsWire;

describe("page reactions", () => {
  it("counts one per reader and reaction id; the reader sees their own; others and anonymous readers see the counts", async () => {
    const { db, id, jwt } = await setup();
    const first = await add(id, B64, "like", { jwt });
    expect(first.status).toBe(200);
    expect(await body(first)).toEqual({
      page_url: URL_A,
      reactions: { like: 1 },
      total_count: 1,
      my_reactions: ["like"],
    });
    expect((await body(await add(id, B64, "like", { jwt }))).reactions).toEqual({ like: 1 });
    await add(id, B64, "wow", { jwt });
    const other = await readerJwt({ id: "reader-2", name: "Cy" });
    const second = await body(await add(id, B64, "like", { jwt: other }));
    expect(second).toEqual({ page_url: URL_A, reactions: { like: 2, wow: 1 }, total_count: 3, my_reactions: ["like"] });
    expect(await body(await read(id, B64, jwt))).toMatchObject({ my_reactions: ["like", "wow"], total_count: 3 });
    const anonymous = await read(id, B64);
    expect(anonymous.status).toBe(200);
    expect(await body(anonymous)).toEqual({
      page_url: URL_A,
      reactions: { like: 2, wow: 1 },
      total_count: 3,
      my_reactions: [],
    });
    expect(await db.pageReaction.count()).toBe(3);
  });

  it("reading a page nobody reacted to counts 0 and creates nothing", async () => {
    const { db, id, jwt } = await setup();
    const res = await read(id, pageId("https://news.example.com/never-seen"), jwt);
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({
      page_url: "https://news.example.com/never-seen",
      reactions: {},
      total_count: 0,
      my_reactions: [],
    });
    expect(await db.page.count()).toBe(0);
    expect(await db.member.count()).toBe(0);
  });

  it("makes one page and one row when a new reader reacts many times at once to a new page", async () => {
    const { db, id } = await setup();
    const jwt = await readerJwt({ id: "first-seen", name: "New" });
    const answers = await Promise.all(Array.from({ length: 6 }, () => add(id, B64, "love", { jwt })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await db.page.count()).toBe(1);
    expect(await db.pageReaction.count()).toBe(1);
    expect(await db.memberIdentity.count({ where: { externalId: "first-seen" } })).toBe(1);
  });

  it("takes a reaction back; without one, answers 200 and changes nothing", async () => {
    const { db, id, jwt } = await setup();
    const other = await readerJwt({ id: "reader-2", name: "Cy" });
    await add(id, B64, "sad", { jwt });
    await add(id, B64, "sad", { jwt: other });
    const res = await remove(id, B64, "sad", jwt);
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ reactions: { sad: 1 }, my_reactions: [] });
    expect((await remove(id, B64, "sad", jwt)).status).toBe(200);
    expect((await remove(id, B64, "sad", await readerJwt({ id: "never-seen", name: "N" }))).status).toBe(200);
    expect((await remove(id, pageId("https://news.example.com/no-page"), "sad", jwt)).status).toBe(200);
    expect(await db.pageReaction.count()).toBe(1);
  });

  it("refuses bad input (400), readers without a valid jwt (401), pages off the publication (403), banned readers (403)", async () => {
    const { db, id, jwt } = await setup();
    expect((await add(id, B64, "thumbsup", { jwt })).status).toBe(400);
    expect((await add(id, "%%", "like", { jwt })).status).toBe(400);
    expect((await read(id, "%%")).status).toBe(400);
    expect((await add(id, B64, "like", {})).status).toBe(401);
    expect((await add(id, B64, "like", { jwt: unsignedJwt({ id: "x", name: "X" }) })).status).toBe(401);
    expect((await remove(id, B64, "like")).status).toBe(401);
    const elsewhere = await add(id, pageId("https://evil.example.org/a"), "like", { jwt });
    expect(elsewhere.status).toBe(403);
    expect((await add("999999", B64, "like", { jwt })).status).toBe(404);
    expect(await db.pageReaction.count()).toBe(0);
    expect(await db.page.count()).toBe(0);
    // Refused, so nothing is written for the reader either: no member record.
    expect(await db.member.count()).toBe(0);

    await add(id, B64, "like", { jwt });
    const member = await db.memberIdentity.findFirstOrThrow({ where: { externalId: "reader-1" } });
    const admin = await db.adminUser.create({
      data: {
        accountId: Number(id),
        email: `mod-${id}@example.test`,
        name: "Mod",
        roles: ["MODERATOR"],
        passwordHash: "x",
      },
    });
    await db.commentBan.create({
      data: { accountId: Number(id), memberId: member.memberId, reason: "spam", createdById: admin.id },
    });
    expect((await add(id, B64, "love", { jwt })).status).toBe(403);
    expect((await remove(id, B64, "like", jwt)).status).toBe(403);
    expect(await db.pageReaction.count()).toBe(1);
  });
});
