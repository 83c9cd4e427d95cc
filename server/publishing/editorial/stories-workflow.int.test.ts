/**
 * Editorial stories through their workflow: draft → submitted → approved → published and back,
 * each move emitting its CONTENT webhook event (with section, parent section and section
 * collection, null without a section; reject and back-to-draft as story-reject with the previous
 * status) and audited; first-published-at kept on a second publish; every illegal move refused
 * with UNPROCESSABLE, changing nothing; nothing emitted for a move that rolls back.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { withTransaction } from "../../db/transaction";
import { at, payloadOf, storySetup, subscribeToStoryEvents } from "../../testing/editorial-stories";
import { insertAuthor, insertSection, textCards } from "../../testing/publishing-factories";
import { forgetPublisherCache } from "../publisher";
import { STORY_ACTIONS, STORY_STATUSES, type TStoryAction, type TStoryStatus } from "./stories.schema";
import { transitionStory } from "./stories/moves";
import { createStory } from "./stories/write";

beforeEach(() => forgetPublisherCache());

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("editorial stories", () => {
  it("walks draft → submitted → approved → published, emitting each event with section, parent section and section collection", async () => {
    const { db, account, actor, ctx } = await storySetup();
    const endpoint = await subscribeToStoryEvents(account.id);
    const parent = await insertSection(db, account.id, { name: "News", slug: "news" });
    const section = await insertSection(db, account.id, {
      name: "Politics",
      slug: "politics",
      parentId: parent.id,
      withCollection: true,
    });
    const other = await insertSection(db, account.id, { name: "Opinion", slug: "opinion" });
    const author = await insertAuthor(db, account.id, { name: "Ada Writer" });
    const created = await createStory(db, {
      ...ctx(),
      input: {
        headline: "Election night",
        sectionIds: [section.id, other.id],
        authorIds: [author.id],
        cards: textCards("Votes were counted."),
      },
    });
    const id = created.story.id;

    const beforeSubmit = await db.webhookDelivery.count();
    const submitted = await transitionStory(db, { ...ctx(1), input: { id, version: 1, action: "submit" } });
    expect(submitted.event).toBe("story-submit");
    expect(submitted.notified).toBe(1);
    expect(await db.webhookDelivery.count()).toBe(beforeSubmit + 1);
    expect(submitted.story).toMatchObject({ status: "SUBMITTED", version: 2 });
    expect(submitted.story.storyVersionId).not.toBe(created.story.storyVersionId);
    const approved = await transitionStory(db, { ...ctx(2), input: { id, version: 2, action: "approve" } });
    expect(approved.story.status).toBe("APPROVED");
    expect(approved.story.publishedAt).toBeNull();
    const published = await transitionStory(db, { ...ctx(3), input: { id, version: 3, action: "publish" } });
    expect(published.story).toMatchObject({
      status: "PUBLISHED",
      version: 4,
      publishedAt: at(3),
      firstPublishedAt: at(3),
      lastPublishedAt: at(3),
    });

    const events = await db.webhookEvent.findMany({
      where: { accountId: account.id },
      orderBy: { id: "asc" },
      include: { deliveries: true },
    });
    expect(events.map((e) => e.name)).toEqual(["story-submit", "story-approve", "story-publish"]);
    expect(
      events.every(
        (e) => e.kind === "CONTENT" && e.deliveries.length === 1 && e.deliveries[0]!.endpointId === endpoint.id,
      ),
    ).toBe(true);
    expect(events.map((e) => e.occurredAt)).toEqual([at(1), at(2), at(3)]);
    const data = payloadOf(events[2]!);
    expect(data.story).toMatchObject({
      id,
      headline: "Election night",
      status: "published",
      version: 4,
      "author-name": "Ada Writer",
      "owner-name": "Eddie Editor",
      "publisher-id": account.id,
    });
    expect((data.story!.sections as unknown[]).length).toBe(2);
    expect(data.section).toMatchObject({ id: section.id, slug: "politics", "parent-id": parent.id });
    expect(data["parent-section"]).toMatchObject({ id: parent.id, slug: "news", "parent-id": null });
    expect(data["section-collection"]).toEqual({
      id: section.collectionId,
      slug: "section-politics",
      name: "Politics",
    });
    expect(data["changed-by"]).toEqual({ id: actor.id, name: "Eddie Editor" });
    expect(data["previous-status"]).toBe("approved");
    expect(data.status).toBe("published");
    expect(data["purge-keys"]).toEqual([`s/${id}`, "stories"]);
    expect(payloadOf(events[0]!)).toMatchObject({
      "previous-status": "draft",
      status: "submitted",
      story: { status: "submitted" },
    });

    const audit = await db.auditLog.findMany({ where: { accountId: account.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["story.create", "story.submit", "story.approve", "story.publish"]);
    expect(audit[3]!.metadata).toMatchObject({ from: "APPROVED", to: "PUBLISHED" });

    // Retract, reopen and publish again: first-published-at stays, the others move.
    await transitionStory(db, { ...ctx(4), input: { id, version: 4, action: "retract" } });
    await transitionStory(db, { ...ctx(5), input: { id, version: 5, action: "back-to-draft" } });
    await transitionStory(db, { ...ctx(6), input: { id, version: 6, action: "submit" } });
    await transitionStory(db, { ...ctx(7), input: { id, version: 7, action: "approve" } });
    const again = await transitionStory(db, { ...ctx(8), input: { id, version: 8, action: "publish" } });
    expect(again.story).toMatchObject({
      firstPublishedAt: at(3),
      publishedAt: at(8),
      lastPublishedAt: at(8),
      version: 9,
    });
    const names = (await db.webhookEvent.findMany({ orderBy: { id: "asc" } })).map((e) => e.name);
    expect(names.slice(3)).toEqual(["story-retract", "story-reject", "story-submit", "story-approve", "story-publish"]);
  });

  it("sends null section fields when the story has no section, and reject/back-to-draft as story-reject with the previous status", async () => {
    const { db, account, ctx } = await storySetup();
    await subscribeToStoryEvents(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Loose" } });
    await transitionStory(db, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
    await transitionStory(db, { ...ctx(2), input: { id: story.id, version: 2, action: "reject" } });
    await transitionStory(db, { ...ctx(3), input: { id: story.id, version: 3, action: "submit" } });
    await transitionStory(db, { ...ctx(4), input: { id: story.id, version: 4, action: "approve" } });
    await transitionStory(db, { ...ctx(5), input: { id: story.id, version: 5, action: "back-to-draft" } });
    const events = await db.webhookEvent.findMany({ orderBy: { id: "asc" } });
    expect(events.map((e) => e.name)).toEqual([
      "story-submit",
      "story-reject",
      "story-submit",
      "story-approve",
      "story-reject",
    ]);
    const rejected = payloadOf(events[1]!);
    expect(rejected).toMatchObject({
      section: null,
      "parent-section": null,
      "section-collection": null,
      "previous-status": "submitted",
      status: "draft",
    });
    expect(payloadOf(events[4]!)["previous-status"]).toBe("approved");
  });

  it("refuses every illegal move with UNPROCESSABLE naming the status, and changes nothing", async () => {
    const { db, account, ctx } = await storySetup();
    await subscribeToStoryEvents(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Moves" } });
    const path: TStoryAction[] = ["submit", "approve", "publish", "retract"];
    const legal: Record<TStoryStatus, TStoryAction[]> = {
      DRAFT: ["submit"],
      SUBMITTED: ["approve", "reject"],
      APPROVED: ["publish", "back-to-draft"],
      PUBLISHED: ["retract"],
      RETRACTED: ["back-to-draft"],
    };
    let version = 1;
    for (const status of STORY_STATUSES) {
      const eventsBefore = await db.webhookEvent.count();
      for (const action of STORY_ACTIONS.filter((a) => !legal[status].includes(a))) {
        const refused = transitionStory(db, { ...ctx(), input: { id: story.id, version, action } });
        await expect(refused, `${status} ${action}`).rejects.toMatchObject({
          code: "UNPROCESSABLE",
          message: expect.stringContaining(status.toLowerCase()) as string,
        });
      }
      expect(await db.story.findUniqueOrThrow({ where: { id: story.id } })).toMatchObject({ status, version });
      expect(await db.webhookEvent.count()).toBe(eventsBefore);
      const next = path[STORY_STATUSES.indexOf(status)];
      if (next)
        version = (await transitionStory(db, { ...ctx(), input: { id: story.id, version, action: next } })).story
          .version;
    }
  });

  it("emits nothing for a change that rolls back", async () => {
    const { db, account, ctx } = await storySetup();
    await subscribeToStoryEvents(account.id);
    const { story } = await createStory(db, { ...ctx(), input: { headline: "Rolled back" } });
    await expect(
      withTransaction(db, async (tx) => {
        await transitionStory(tx, { ...ctx(1), input: { id: story.id, version: 1, action: "submit" } });
        throw new Error("something after the move failed");
      }),
    ).rejects.toThrow("something after the move failed");
    expect(await db.webhookEvent.count()).toBe(0);
    expect(await db.webhookDelivery.count()).toBe(0);
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("DRAFT");
    expect(await db.auditLog.count({ where: { action: "story.submit" } })).toBe(0);
  });
});
