/** Story votes over HTTP: members only, published stories only, one vote per member, parallel-safe. */
import { randomUUID } from "node:crypto";

import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { createMemberSession } from "@/server/members/sessions";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { loadWireStoriesByIds } from "@/server/publishing/stories";
import { createTestPublisher, insertStory } from "@/server/testing/publishing-factories";

import { GET, POST } from "./route";

let seq = 0;

async function setup() {
  const db = await getDb();
  const publisher = await createTestPublisher(db);
  const story = await insertStory(db, publisher.id);
  return { db, publisher, story };
}

async function member(accountId: number) {
  const db = await getDb();
  const row = await db.member.create({
    data: { accountId, name: `Voter ${seq}`, email: `voter${seq++}@example.com`, passwordHash: "unused" },
  });
  const { token } = await createMemberSession(db, { memberId: row.id, now: new Date(), days: 30 });
  return { id: row.id, token };
}

const ctx = (storyId: string) => ({ params: Promise.resolve({ storyId }) });

function vote(storyId: string, magnitude: unknown, token?: string, extra: Record<string, unknown> = {}) {
  return POST(
    new Request(`http://localhost/api/stories/${storyId}/votes`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", ...(token ? { "X-QT-AUTH": token } : {}) },
      body: JSON.stringify({ magnitude, ...extra }),
    }),
    ctx(storyId),
  );
}

function votes(storyId: string, headers: Record<string, string> = {}) {
  return GET(
    new Request(`http://localhost/api/stories/${storyId}/votes`, { headers: { host: "localhost", ...headers } }),
    ctx(storyId),
  );
}

async function json(res: Response) {
  return (await res.json()) as Record<string, unknown> & { error: { code: string; message: string } };
}

beforeEach(() => forgetPublisherCache());

describe("POST /api/stories/{id}/votes", () => {
  it("records a logged-in member's vote and answers it with the totals", async () => {
    const { story } = await setup();
    const ada = await member(story.accountId);
    const res = await vote(story.id, "1", ada.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      vote: { "story-id": story.id, magnitude: 1, "member-id": ada.id },
      votes: { total: 1, up: 1, down: 0 },
    });
  });

  it("answers 401 without a member session, and with a bogus one", async () => {
    const { story, db } = await setup();
    for (const token of [undefined, "bogus"]) {
      const res = await vote(story.id, "1", token);
      expect(res.status).toBe(401);
      expect((await json(res)).error.code).toBe("UNAUTHORIZED");
    }
    expect((await votes(story.id)).status).toBe(401);
    expect(await db.storyVote.count()).toBe(0);
  });

  it("answers 404 for a draft, a retracted story, another publisher's story and an unknown id; 400 for a malformed id", async () => {
    const { db, publisher } = await setup();
    const ada = await member(publisher.id);
    const draft = await insertStory(db, publisher.id, { status: "DRAFT" });
    const retracted = await insertStory(db, publisher.id, { status: "RETRACTED" });
    const elsewhere = await insertStory(db, (await createTestPublisher(db, { domain: "other.example.com" })).id);
    for (const id of [draft.id, retracted.id, elsewhere.id, randomUUID()]) {
      const res = await vote(id, "1", ada.token);
      expect(res.status).toBe(404);
      expect((await json(res)).error).toEqual({ code: "NOT_FOUND", message: "Story not found." });
      expect((await votes(id, { "X-QT-AUTH": ada.token })).status).toBe(404);
    }
    expect((await vote("not-a-uuid", "1", ada.token)).status).toBe(400);
    expect(await db.storyVote.count()).toBe(0);
  });

  it("takes the magnitude as a string or a number, ignores other keys, and refuses anything else with 400", async () => {
    const { story } = await setup();
    const ada = await member(story.accountId);
    expect((await vote(story.id, -1, ada.token, { story_id: story.id })).status).toBe(200);
    expect((await vote(story.id, "-1", ada.token)).status).toBe(200);
    for (const bad of ["2", 0, "up", null, 1.5, undefined]) {
      const res = await vote(story.id, bad, ada.token);
      expect(res.status, String(bad)).toBe(400);
    }
  });

  it("keeps one vote per member: voting again changes it", async () => {
    const { db, story } = await setup();
    const [ada, bob, cy] = [
      await member(story.accountId),
      await member(story.accountId),
      await member(story.accountId),
    ];
    await vote(story.id, "1", ada.token);
    await vote(story.id, "1", bob.token);
    await vote(story.id, "-1", cy.token);
    const changed = await vote(story.id, "-1", ada.token);
    expect((await json(changed)).votes as object).toEqual({ total: -1, up: 1, down: 2 });
    expect(await db.storyVote.count({ where: { storyId: story.id } })).toBe(3);
    expect((await db.storyVote.findFirstOrThrow({ where: { memberId: ada.id } })).magnitude).toBe(-1);
  });

  it("keeps the totals as votes change (the database's triggers), and the story's `votes` field reads them", async () => {
    const { db, publisher, story } = await setup();
    const readContext = {
      accountId: publisher.id,
      view: { publisherId: publisher.id, siteUrl: "" },
      now: new Date(),
      paidPart: "full" as const,
    };
    const voters = await Promise.all(Array.from({ length: 8 }, () => member(story.accountId)));
    // Eight members at once, five up and three down; then two change their minds.
    await Promise.all(voters.map((v, n) => vote(story.id, n < 5 ? "1" : "-1", v.token)));
    await vote(story.id, "-1", voters[0]!.token);
    await vote(story.id, "1", voters[7]!.token);
    const kept = () => db.storyVoteTotal.findUnique({ where: { storyId: story.id }, select: { up: true, down: true } });
    const counted = async () => ({
      up: await db.storyVote.count({ where: { storyId: story.id, magnitude: 1 } }),
      down: await db.storyVote.count({ where: { storyId: story.id, magnitude: -1 } }),
    });
    expect(await kept()).toEqual({ up: 5, down: 3 });
    expect(await kept()).toEqual(await counted());
    // A member deleted takes their vote with them (a cascade, no service involved).
    await db.member.delete({ where: { id: voters[1]!.id } });
    expect(await kept()).toEqual({ up: 4, down: 3 });
    const read = async () => (await loadWireStoriesByIds(db, readContext, [story.id], ["votes"]))[0];
    expect((await read())?.votes).toBe(1);
    expect((await json(await votes(story.id, { "X-QT-AUTH": voters[0]!.token }))).votes).toEqual({
      total: 1,
      up: 4,
      down: 3,
    });
    // Every vote gone: the totals follow (a story without votes reads 0).
    await db.storyVote.deleteMany({ where: { storyId: story.id } });
    expect(await kept()).toEqual({ up: 0, down: 0 });
    expect((await read())?.votes).toBe(0);
  });

  it("stores one row when the same member votes many times in parallel", async () => {
    const { db, story } = await setup();
    const ada = await member(story.accountId);
    const magnitudes = ["1", "-1", "1", "-1", "1", "-1", "1", "-1"];
    const results = await Promise.all(magnitudes.map((m) => vote(story.id, m, ada.token)));
    expect(results.map((r) => r.status)).toEqual(magnitudes.map(() => 200));
    const rows = await db.storyVote.findMany({ where: { storyId: story.id } });
    expect(rows).toHaveLength(1);
    expect([1, -1]).toContain(rows[0]!.magnitude);
    const after = await json(await votes(story.id, { "X-QT-AUTH": ada.token }));
    expect(after.votes).toEqual(
      rows[0]!.magnitude === 1 ? { total: 1, up: 1, down: 0 } : { total: -1, up: 0, down: 1 },
    );
  });
});

describe("GET /api/stories/{id}/votes", () => {
  it("answers the totals and the member's own vote (null before voting)", async () => {
    const { story } = await setup();
    const [ada, bob] = [await member(story.accountId), await member(story.accountId)];
    const before = await votes(story.id, { cookie: `qt-auth=${ada.token}` });
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ votes: { total: 0, up: 0, down: 0 }, "my-vote": null });
    await vote(story.id, "1", ada.token);
    await vote(story.id, "-1", bob.token);
    await vote(story.id, "1", (await member(story.accountId)).token);
    expect(await (await votes(story.id, { "X-QT-AUTH": bob.token })).json()).toEqual({
      votes: { total: 1, up: 2, down: 1 },
      "my-vote": -1,
    });
  });
});
