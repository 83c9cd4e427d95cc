/**
 * One transaction path (server/db/transaction.ts): services called with a caller's transaction
 * join it (no nested transaction, which PGlite refuses), commit or roll back with it, and say
 * what happened (events, jobs) only after the caller's commit. Runs on PGlite and PostgreSQL.
 */
import { afterEach, describe, expect, it } from "vitest";

import { getDb } from ".";
import type { StaffActor } from "../auth/actor";
import { setJobNotifier, type QueuedJob } from "../jobs/queue";
import { createCollection } from "../publishing/editorial/collections/write";
import { transitionStory } from "../publishing/editorial/stories/moves";
import { createStory } from "../publishing/editorial/stories/write";
import { createTag } from "../publishing/editorial/taxonomy/tags";
import { createTestPublisher } from "../testing/publishing-factories";
import { insertEditor } from "../testing/staff";
import type { Db } from "./client";
import { afterCommit, withTransaction } from "./transaction";

afterEach(() => setJobNotifier(undefined));

async function editor() {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: "http://127.0.0.1:9/hook", events: ["story-submit"] },
  });
  return { db, actor: await insertEditor(db, account.id) };
}

/** An editor's draft story, and the hand-offs the engine is told of from then on. */
async function draftWatchingHandOffs(headline: string) {
  const { db, actor } = await editor();
  const told: QueuedJob[][] = [];
  setJobNotifier((jobs) => void told.push(jobs));
  const { story } = await createStory(db, { actor, input: { headline }, now, appUrl: "http://x" });
  told.length = 0;
  return { db, actor, story, told };
}

function submit(db: Db, actor: StaffActor, storyId: string) {
  return transitionStory(db, { actor, input: { id: storyId, version: 1, action: "submit" }, now, appUrl: "http://x" });
}

const now = new Date("2026-06-01T09:00:00Z");

describe("a write inside a caller's transaction", () => {
  it("joins it: a tag, a collection and a story move made in one transaction commit together", async () => {
    const { db, actor, story, told } = await draftWatchingHandOffs("Joined");
    await withTransaction(db, async (tx) => {
      await createTag(tx, { actor, input: { name: "Inside" }, now });
      await createCollection(tx, { actor, input: { name: "Inside too" }, now });
      await submit(tx, actor, story.id);
      // Not committed: nobody has been told. (Reading through `db` here would wait for this
      // transaction on PGlite, which has one connection.)
      expect(told).toHaveLength(0);
    });
    expect(await db.tag.count({ where: { name: "Inside" } })).toBe(1);
    expect(await db.collection.count({ where: { name: "Inside too" } })).toBe(1);
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("SUBMITTED");
    // The story-submit delivery was told to the engine once, after the commit.
    expect(told.flat().map((job) => job.name)).toEqual(["webhook.deliver"]);
  });

  it("rolls back with it: nothing written, nothing told", async () => {
    const { db, actor, story, told } = await draftWatchingHandOffs("Undone");
    await expect(
      withTransaction(db, async (tx) => {
        await createTag(tx, { actor, input: { name: "Gone" }, now });
        await submit(tx, actor, story.id);
        throw new Error("the caller changed its mind");
      }),
    ).rejects.toThrow("the caller changed its mind");
    expect(await db.tag.count({ where: { name: "Gone" } })).toBe(0);
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("DRAFT");
    expect(await db.webhookEvent.count()).toBe(0);
    expect(await db.job.count({ where: { name: "webhook.deliver" } })).toBe(0);
    expect(told).toHaveLength(0);
  });

  it("runs after-commit hooks once, in order, after the outermost commit only", async () => {
    const db = await getDb();
    const calls: string[] = [];
    await withTransaction(db, async (tx) => {
      afterCommit(tx, () => void calls.push("outer"));
      await withTransaction(tx, async (inner) => {
        afterCommit(inner, () => void calls.push("inner"));
        calls.push("inside");
      });
      calls.push("end of work");
    });
    expect(calls).toEqual(["inside", "end of work", "outer", "inner"]);
  });
});
