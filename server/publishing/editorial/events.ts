/**
 * The CONTENT webhook events of the story workflow: their `data` (spec §6: the story, its direct
 * section, that section's parent and the section's collection) and emitting them in the
 * transaction of the change (an outbox: no event for a change that rolled back).
 *
 * data = {
 *   story,                 the full wire story (storyToWire: what the content API returns)
 *   section,               the story's primary (first) section, or null
 *   "parent-section",      that section's parent, or null
 *   "section-collection",  that section's collection {id, slug, name}, or null
 *   "changed-by",          the dashboard user who made the change {id, name}
 *   "previous-status",     the status before ("draft", …)
 *   status,                the status after
 *   "purge-keys"           the cache purge keys of every response the change can alter
 * }
 *
 * Purge: public responses carry purge keys (Cache-Tag / Surrogate-Key, docs/publishing.md). A
 * story appears under its own key (by id, by slug, and in every list, collection and feed that
 * holds it) and lists that depend on which stories are published carry "stories"; so those two
 * keys reach every response the change can alter. A CDN purge worker subscribed to these events
 * purges exactly them.
 */
import "server-only";

import { actorUserId, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import type { StoryStatus } from "../../generated/prisma/client";
import { emitWebhookEvent } from "../../webhooks/deliveries";
import { getPublisher } from "../publisher";
import {
  SECTION_SELECT,
  sectionToWire,
  STORY_INCLUDE,
  storyToWire,
  type SectionRow,
  type StoryViewContext,
  type StoryWithRelations,
} from "../story-view";
import type { TContentWorkflowEvent } from "./stories.schema";

type StoryEventData = {
  story: Record<string, unknown>;
  section: Record<string, unknown> | null;
  "parent-section": Record<string, unknown> | null;
  "section-collection": { id: number; slug: string; name: string } | null;
  "changed-by": { id: string | null; name: string };
  "previous-status": string;
  status: string;
  "purge-keys": string[];
};

/** Purge keys of every public response a change to this story can alter. */
function storyPurgeKeys(storyId: string): string[] {
  return [`s/${storyId}`, "stories"];
}

/** The event's `data`, from what is already loaded. Pure. */
function buildStoryEventData(args: {
  story: StoryWithRelations;
  view: StoryViewContext;
  parentSection: SectionRow | null;
  changedBy: { id: string | null; name: string };
  previousStatus: StoryStatus;
}): StoryEventData {
  const primary = args.story.sections[0]?.section ?? null;
  return {
    story: storyToWire(args.story, args.view),
    section: primary ? sectionToWire(primary, args.view.siteUrl) : null,
    "parent-section": args.parentSection ? sectionToWire(args.parentSection, args.view.siteUrl) : null,
    "section-collection": primary?.collection
      ? { id: primary.collection.id, slug: primary.collection.slug, name: primary.collection.name }
      : null,
    "changed-by": args.changedBy,
    "previous-status": args.previousStatus.toLowerCase(),
    status: args.story.status.toLowerCase(),
    "purge-keys": storyPurgeKeys(args.story.id),
  };
}

/**
 * Load what the payload needs and record the event with its deliveries, through `db`: pass the
 * transaction of the change (they are delivered once it commits). Returns how many webhooks
 * subscribe to it (the deliveries queued).
 */
export async function emitStoryEvent(
  db: Db,
  args: {
    actor: Actor;
    storyId: string;
    name: TContentWorkflowEvent;
    previousStatus: StoryStatus;
    now: Date;
    appUrl: string;
  },
): Promise<number> {
  const { actor } = args;
  const accountId = actor.accountId;
  const story = await db.story.findFirstOrThrow({
    where: { id: args.storyId, accountId: accountId },
    include: STORY_INCLUDE,
  });
  const primary = story.sections[0]?.section;
  const parentSection = primary?.parentId
    ? await db.section.findFirst({ where: { id: primary.parentId, accountId: accountId }, select: SECTION_SELECT })
    : null;
  const userIds = [actorUserId(actor), story.ownerId, story.assigneeId].filter((id): id is string => Boolean(id));
  const users = await db.adminUser.findMany({
    where: { id: { in: userIds }, accountId: accountId },
    select: { id: true, name: true },
  });
  const userNames = new Map(users.map((u) => [u.id, u.name]));
  const publisher = await getPublisher(db, accountId, { appUrl: args.appUrl });
  const data = buildStoryEventData({
    story,
    view: { publisherId: accountId, siteUrl: publisher.siteUrl, userNames },
    parentSection,
    changedBy:
      actor.kind === "staff"
        ? { id: actor.id, name: userNames.get(actor.id) ?? "" }
        : { id: null, name: `Masthead (${actor.name})` },
    previousStatus: args.previousStatus,
  });
  const { deliveryIds } = await emitWebhookEvent(db, {
    accountId: accountId,
    kind: "CONTENT",
    name: args.name,
    data,
    occurredAt: args.now,
  });
  return deliveryIds.length;
}
