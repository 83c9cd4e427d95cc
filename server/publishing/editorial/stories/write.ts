/**
 * Writing stories in the dashboard: create, edit and restore revisions (reads: ./read.ts; moves
 * through the workflow and deleting drafts: ./moves.ts). Every function is scoped to the actor's
 * account (another account's story is NOT_FOUND).
 *
 * Vocabulary:
 * - version: bumped by every save and every move; callers send the version they loaded, and a
 *   stale one is refused with CONFLICT, so two editors saving at once never overwrite each other
 *   silently. The check is repeated in the UPDATE's WHERE, so it also holds under a race.
 * - move: a workflow transition (../workflow.ts, ./moves.ts). A move, and a save of a published
 *   story, emit a CONTENT webhook event (../events.ts) in the same transaction as the change and
 *   its audit entry; the caller dispatches the returned delivery ids after the commit.
 * - cards: stored in the wire shape; every HTML field is reduced to one allow-list and every link
 *   checked by one URL rule (./cards.ts), and plain text and read time are recomputed from them
 *   on every save.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import type { z } from "zod";

import { recordAudit } from "../../../audit/audit-log";
import { actorUserId } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { withTransaction } from "../../../db/transaction";
import { AppError } from "../../../errors";
import type { Prisma } from "../../../generated/prisma/client";
import { parseInput } from "../../../validation";
import type { TCard } from "../../cards.schema";
import { cardsPlainText, readTimeMinutes } from "../../story-view";
import { assertAuthorship } from "../authorship";
import { emitStoryEvent } from "../events";
import { assertImageRefsAllowed, collectImageRefs } from "../image-refs";
import { recordRevision, revisionForRestore } from "../revisions";
import { ZRestoreRevisionInput, type TRestoreRevisionInput, type TRevisionKind } from "../revisions.schema";
import {
  countStoryElements,
  paywallAtIssue,
  ZCreateStoryInput,
  ZUpdateStoryInput,
  type TCreateStoryInput,
  type TUpdateStoryInput,
} from "../stories.schema";
import { eventForSave } from "../workflow";
import { normalizeCards } from "./cards";
import {
  assertIdsExist,
  assertStorySlugFree,
  changedStoryFields,
  generateSlug,
  resolveTags,
  scalarData,
  staleVersion,
  storyImageRefs,
  writeRelations,
  type StoryWriteOutcome,
  type WriteContext,
} from "./fields";
import { getStory, loadEditorView } from "./read";

/** A new draft, owned by the actor. */
export async function createStory(
  db: Db,
  args: WriteContext & { input: TCreateStoryInput },
): Promise<StoryWriteOutcome> {
  const fields = parseInput(ZCreateStoryInput, args.input);
  const { actor, now } = args;
  const accountId = actor.accountId;
  const id = await withTransaction(
    db,
    async (tx) => {
      await assertIdsExist(tx, accountId, {
        sectionIds: fields.sectionIds,
        authorIds: fields.authorIds,
        entityIds: fields.entityIds,
        linkedStoryId: fields.breakingNewsLinkedStoryId,
      });
      const slug = fields.slug ? fields.slug : await generateSlug(tx, accountId, fields.headline);
      if (fields.slug) await assertStorySlugFree(tx, accountId, slug);
      const tagIds = fields.tags ? await resolveTags(tx, accountId, fields.tags, now) : [];
      const cards = normalizeCards(fields.cards ?? [], [], now);
      await assertImageRefsAllowed(tx, { accountId, refs: storyImageRefs({ heroImage: fields.heroImage, cards }) });
      const plainText = cardsPlainText(cards);
      const story = await tx.story.create({
        data: {
          ...(scalarData(fields, {}) as Prisma.StoryUncheckedCreateInput),
          accountId,
          headline: fields.headline,
          slug,
          status: "DRAFT",
          cards: cards as unknown as Prisma.InputJsonArray,
          plainText,
          readTime: readTimeMinutes(plainText),
          ownerId: actorUserId(actor),
          createdAt: now,
          updatedAt: now,
        },
        select: { id: true },
      });
      await writeRelations(tx, story.id, {
        sectionIds: fields.sectionIds ?? [],
        authorIds: fields.authorIds ?? [],
        tagIds,
        entityIds: fields.entityIds ?? [],
      });
      await recordAudit(tx, {
        actor,
        action: "story.create",
        targetType: "story",
        targetId: story.id,
        metadata: { headline: fields.headline, slug },
        now,
      });
      await recordRevision(tx, {
        actor,
        storyId: story.id,
        kind: "save",
        view: await loadEditorView(tx, story.id),
        now,
      });
      return story.id;
    },
    { retryUniqueClashes: true },
  );
  return { story: await getStory(db, { actor, id, appUrl: args.appUrl }), event: null, notified: 0 };
}

/**
 * Save an edit. Only the fields given change. `version` must be the story's current one. Saving a
 * published story keeps it published, marks it republished (last-published-at) and emits
 * story-update.
 */
export async function updateStory(
  db: Db,
  args: WriteContext & { input: TUpdateStoryInput },
): Promise<StoryWriteOutcome> {
  const { saveKind, ...input } = parseInput(ZUpdateStoryInput, args.input);
  return saveStory(db, { ...args, input, kind: saveKind ?? "save" });
}

/** An update's write, recording a revision of `kind` in its transaction. */
async function saveStory(
  db: Db,
  args: WriteContext & { input: z.output<typeof ZUpdateStoryInput>; kind: TRevisionKind },
): Promise<StoryWriteOutcome> {
  const { id, version, saveKind: _ignored, ...fields } = args.input;
  const { actor, now, kind } = args;
  const accountId = actor.accountId;
  const outcome = await withTransaction(
    db,
    async (tx) => {
      const current = await tx.story.findFirst({
        where: { id, accountId },
        include: {
          sections: { select: { sectionId: true }, orderBy: { position: "asc" } },
          authors: { select: { authorId: true }, orderBy: { position: "asc" } },
          tags: { select: { tagId: true }, orderBy: { position: "asc" } },
          entities: { select: { entityId: true } },
        },
      });
      if (!current) throw new AppError("NOT_FOUND", "Story not found.");
      await assertAuthorship(tx, { actor, gate: "edit", story: current });
      if (current.version !== version) throw staleVersion();
      // Autosave never changes what readers see: only drafts save themselves.
      if (kind === "autosave" && current.status !== "DRAFT")
        throw new AppError("UNPROCESSABLE", "Only drafts are saved automatically; save this story with Save.", {
          details: [{ field: "saveKind", issue: `the story is ${current.status.toLowerCase()}` }],
        });
      await assertIdsExist(tx, accountId, {
        sectionIds: fields.sectionIds,
        authorIds: fields.authorIds,
        entityIds: fields.entityIds,
        linkedStoryId: fields.breakingNewsLinkedStoryId,
      });
      let slug: string | undefined;
      if (fields.slug === "") slug = await generateSlug(tx, accountId, fields.headline ?? current.headline, id);
      else if (fields.slug !== undefined && fields.slug !== current.slug) {
        await assertStorySlugFree(tx, accountId, fields.slug, id);
        slug = fields.slug;
      }
      // A paywall point sent without the cards must fall within the cards the story has (with them: the schema checks).
      if (fields.paywallAt != null && fields.cards === undefined) {
        const issue = paywallAtIssue(fields.paywallAt, countStoryElements((current.cards ?? []) as TCard[]));
        if (issue)
          throw new AppError("BAD_REQUEST", "The input is not valid.", {
            details: [{ field: "paywallAt", issue }],
          });
      }
      const tagIds = fields.tags ? await resolveTags(tx, accountId, fields.tags, now) : undefined;
      const data = scalarData(fields, current.seo);
      if (slug !== undefined) data.slug = slug;
      if (fields.cards) {
        const cards = normalizeCards(fields.cards, (current.cards ?? []) as TCard[], now);
        const plainText = cardsPlainText(cards);
        data.cards = cards as unknown as Prisma.InputJsonArray;
        data.plainText = plainText;
        data.readTime = readTimeMinutes(plainText);
      }
      // Images the story already shows stay allowed; new ones must be the account's (../image-refs.ts).
      const keep = [
        ...(current.heroImageS3Key ? [current.heroImageS3Key] : []),
        ...collectImageRefs(current.cards, "cards").map((ref) => ref.key),
      ];
      await assertImageRefsAllowed(tx, {
        accountId,
        refs: storyImageRefs({ heroImage: fields.heroImage, cards: fields.cards }),
        keep,
      });
      const event = eventForSave(current.status);
      if (current.status === "PUBLISHED") data.lastPublishedAt = now;
      const updated = await tx.story.updateMany({
        where: { id, accountId, version },
        data: { ...data, version: { increment: 1 }, storyVersionId: randomUUID(), updatedAt: now },
      });
      if (updated.count === 0) throw staleVersion();
      await writeRelations(tx, id, {
        sectionIds: fields.sectionIds,
        authorIds: fields.authorIds,
        tagIds,
        entityIds: fields.entityIds,
      });
      await recordAudit(tx, {
        actor,
        action: "story.update",
        targetType: "story",
        targetId: id,
        metadata: {
          version: version + 1,
          fields: changedStoryFields(
            {
              ...current,
              sectionIds: current.sections.map((r) => r.sectionId),
              authorIds: current.authors.map((r) => r.authorId),
              tagIds: current.tags.map((r) => r.tagId),
              entityIds: current.entities.map((r) => r.entityId).sort((a, b) => a - b),
            },
            {
              ...data,
              sectionIds: fields.sectionIds,
              authorIds: fields.authorIds,
              tagIds,
              entityIds: fields.entityIds ? [...fields.entityIds].sort((a, b) => a - b) : undefined,
            },
          ),
          ...(kind === "save" ? {} : { kind }),
        },
        now,
      });
      await recordRevision(tx, { actor, storyId: id, kind, view: await loadEditorView(tx, id), now });
      const notified = event
        ? await emitStoryEvent(tx, {
            storyId: id,
            name: event,
            actor,
            previousStatus: current.status,
            now,
            appUrl: args.appUrl,
          })
        : 0;
      return { event, notified };
    },
    { retryUniqueClashes: true },
  );
  return { story: await getStory(db, { actor, id, appUrl: args.appUrl }), ...outcome };
}

/**
 * Write a revision's content as a new save on top of the story's current version (`version`, which
 * must be current: CONFLICT otherwise), recorded as a revision of kind "restore". Sections,
 * authors and entities deleted since are left out; a deleted tag comes back by name.
 */
export async function restoreRevision(
  db: Db,
  args: WriteContext & { input: TRestoreRevisionInput },
): Promise<StoryWriteOutcome> {
  const { storyId, revisionId, version } = parseInput(ZRestoreRevisionInput, args.input);
  const fields = await revisionForRestore(db, { actor: args.actor, storyId, revisionId });
  const input = parseInput(ZUpdateStoryInput, { id: storyId, version, ...fields });
  return saveStory(db, { ...args, input, kind: "restore" });
}
