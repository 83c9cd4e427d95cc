/**
 * Scheduled publishing on the job engine: an approved story scheduled for a time is published at
 * that time, once, by the scheduler, with the event and audit entry Publish makes; rescheduling,
 * cancelling and moving the story change or end the schedule. PGlite and PostgreSQL.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { JOBS } from "@/server/background/job-list";

import { getDb } from "../../db";
import { runDueJobs } from "../../jobs/engine";
import { appErrorCodeOf as codeOf } from "../../testing/app-errors";
import { runJobsNow, testJobDeps } from "../../testing/jobs";
import { createTestPublisher } from "../../testing/publishing-factories";
import { insertEditor } from "../../testing/staff";
import { ZStoriesQuery } from "../content.schema";
import { forgetPublisherCache, resolvePublisher } from "../publisher";
import { contentContext, listPublishedStories } from "../stories";
import { cancelStoryPublication, scheduleStoryPublication } from "./scheduling";
import { transitionStory } from "./stories/moves";
import { createStory } from "./stories/write";

const APP_URL = "http://localhost:3000";
const T0 = new Date("2026-03-01T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

beforeEach(() => forgetPublisherCache());

/** An editor, a subscribed webhook, and an approved story (version 3). */
async function approvedStory(headline = "Budget day") {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  await db.webhookEndpoint.create({
    data: { accountId: account.id, kind: "CONTENT", url: "http://127.0.0.1:9/hook", events: ["story-publish"] },
  });
  const actor = await insertEditor(db, account.id);
  const ctx = (minutes = 0) => ({ actor, now: at(minutes), appUrl: APP_URL });
  const { story } = await createStory(db, { ...ctx(), input: { headline } });
  await transitionStory(db, { ...ctx(), input: { id: story.id, version: 1, action: "submit" } });
  await transitionStory(db, { ...ctx(), input: { id: story.id, version: 2, action: "approve" } });
  return { db, account, actor, ctx, id: story.id };
}

describe("scheduled publishing", () => {
  it("publishes an approved story at its time, once, as the scheduler, with the publish event", async () => {
    const { db, ctx, id, account } = await approvedStory();
    const scheduled = await scheduleStoryPublication(db, { ...ctx(), input: { id, version: 3, publishAt: at(30) } });
    expect(scheduled.story).toMatchObject({ status: "APPROVED", version: 4, publishAt: at(30) });
    expect(await db.job.count({ where: { name: "story.publish", status: "PENDING", runAt: at(30) } })).toBe(1);

    await runJobsNow(db, testJobDeps({ clock: () => at(29) }));
    expect((await db.story.findUniqueOrThrow({ where: { id } })).status).toBe("APPROVED");

    await runJobsNow(db, testJobDeps({ clock: () => at(30) }));
    const story = await db.story.findUniqueOrThrow({ where: { id } });
    expect(story).toMatchObject({ status: "PUBLISHED", publishedAt: at(30), publishAt: null, version: 5 });
    const events = await db.webhookEvent.findMany({ where: { name: "story-publish" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      "changed-by": { id: null, name: "Masthead (scheduler)" },
      "previous-status": "approved",
      status: "published",
      "purge-keys": [`s/${id}`, "stories"],
    });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "story.publish", targetId: id } });
    expect(audit.actorId).toBeNull();
    expect(audit.metadata).toMatchObject({ system: "scheduler" });
    // The read API (and so the feeds) serve it from then on.
    const publisher = await resolvePublisher(db, { host: "news.example.com" });
    expect(publisher.accountId).toBe(account.id);
    const stories = await listPublishedStories(db, {
      ctx: contentContext(publisher, at(31)),
      ...ZStoriesQuery.parse({}),
    });
    expect(stories.map((s) => s.id)).toContain(id);
    // Done: running again publishes nothing twice.
    await runJobsNow(db, testJobDeps({ clock: () => at(60) }));
    expect(await db.webhookEvent.count({ where: { name: "story-publish" } })).toBe(1);
    expect(await db.job.findFirstOrThrow({ where: { name: "story.publish" } })).toMatchObject({
      status: "SUCCEEDED",
      key: null,
    });
  });

  it("rescheduling replaces the one pending job; the old time publishes nothing", async () => {
    const { db, ctx, id } = await approvedStory();
    await scheduleStoryPublication(db, { ...ctx(), input: { id, version: 3, publishAt: at(30) } });
    await scheduleStoryPublication(db, { ...ctx(1), input: { id, version: 4, publishAt: at(90) } });
    expect(await db.job.count({ where: { name: "story.publish", status: "PENDING" } })).toBe(1);
    await runJobsNow(db, testJobDeps({ clock: () => at(45) }));
    expect((await db.story.findUniqueOrThrow({ where: { id } })).status).toBe("APPROVED");
    await runJobsNow(db, testJobDeps({ clock: () => at(90) }));
    expect((await db.story.findUniqueOrThrow({ where: { id } })).publishedAt).toEqual(at(90));
  });

  it("cancelling, or moving the story out of approved, ends the schedule", async () => {
    const first = await approvedStory("Cancelled");
    await scheduleStoryPublication(first.db, {
      ...first.ctx(),
      input: { id: first.id, version: 3, publishAt: at(30) },
    });
    const cancelled = await cancelStoryPublication(first.db, { ...first.ctx(1), input: { id: first.id, version: 4 } });
    expect(cancelled.story).toMatchObject({ status: "APPROVED", publishAt: null });
    expect(await first.db.job.count({ where: { name: "story.publish", status: "CANCELLED" } })).toBe(1);

    const second = await approvedStory("Sent back");
    const { db } = second;
    await scheduleStoryPublication(db, { ...second.ctx(), input: { id: second.id, version: 3, publishAt: at(30) } });
    await transitionStory(db, { ...second.ctx(2), input: { id: second.id, version: 4, action: "back-to-draft" } });
    expect(await db.job.count({ where: { name: "story.publish", status: "PENDING" } })).toBe(0);
    expect((await db.story.findUniqueOrThrow({ where: { id: second.id } })).publishAt).toBeNull();

    await runJobsNow(db, testJobDeps({ clock: () => at(30) }));
    expect(await db.story.count({ where: { status: "PUBLISHED" } })).toBe(0);
    expect(await db.webhookEvent.count({ where: { name: "story-publish" } })).toBe(0);
  });

  it("refuses a story that is not approved, a time too soon or too far, a stale version, another account's story", async () => {
    const { db, ctx, id } = await approvedStory();
    const draft = await createStory(db, { ...ctx(), input: { headline: "Draft" } });
    expect(
      await codeOf(
        scheduleStoryPublication(db, { ...ctx(), input: { id: draft.story.id, version: 1, publishAt: at(30) } }),
      ),
    ).toBe("UNPROCESSABLE");
    for (const publishAt of [at(-5), at(0.5), at(400 * 24 * 60)])
      expect(await codeOf(scheduleStoryPublication(db, { ...ctx(), input: { id, version: 3, publishAt } }))).toBe(
        "UNPROCESSABLE",
      );
    expect(await codeOf(scheduleStoryPublication(db, { ...ctx(), input: { id, version: 2, publishAt: at(30) } }))).toBe(
      "CONFLICT",
    );
    expect(await codeOf(cancelStoryPublication(db, { ...ctx(), input: { id, version: 3 } }))).toBe("UNPROCESSABLE");
    const other = await approvedStory("Theirs");
    expect(
      await codeOf(scheduleStoryPublication(db, { ...other.ctx(), input: { id, version: 3, publishAt: at(30) } })),
    ).toBe("NOT_FOUND");
    expect(await db.job.count({ where: { name: "story.publish" } })).toBe(0);
  });

  it("publishes exactly once when two workers run the due job at the same moment", async () => {
    const { db, ctx, id } = await approvedStory();
    await scheduleStoryPublication(db, { ...ctx(), input: { id, version: 3, publishAt: at(30) } });
    const deps = testJobDeps({ clock: () => at(30) });
    await Promise.all(["a", "b", "c"].map((workerId) => runDueJobs(db, { jobs: JOBS, deps, workerId })));
    expect(await db.webhookEvent.count({ where: { name: "story-publish" } })).toBe(1);
    expect(await db.auditLog.count({ where: { action: "story.publish" } })).toBe(1);
    expect((await db.story.findUniqueOrThrow({ where: { id } })).status).toBe("PUBLISHED");
  });
});
