/**
 * What the story writes share (./write.ts saves, ./moves.ts moves and deletes): the version check,
 * the checks of what a save refers to (sections, authors, tags, entities, images, slug), the
 * columns and relations it writes, and the fields its audit entry names.
 */
import "server-only";

import type { z } from "zod";

import { ownValue } from "@/server/own-keys";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { AppError, type ErrorDetail } from "../../../errors";
import { Prisma } from "../../../generated/prisma/client";
import { slugify } from "../../../text/slug";
import { canonicalJson } from "../../bulk";
import { collectImageRefs, type ImageRef } from "../image-refs";
import { cleanOptionalHtml } from "../sanitize";
import { isObject, lockRows } from "../shared";
import {
  STORY_SLUG_MAX,
  type TContentWorkflowEvent,
  type TStoryEditorView,
  type TStoryTagRef,
  type ZUpdateStoryInput,
} from "../stories.schema";

/** What every write needs besides its input: who, when, and the app's URL (the site URL's fallback). */
export type WriteContext = { actor: Actor; now: Date; appUrl: string };

/**
 * A save's or a move's outcome: the story as saved, the event it sent (delivered after the commit)
 * and to how many webhooks (0 when none subscribes to it).
 */
export type StoryWriteOutcome = { story: TStoryEditorView; event: TContentWorkflowEvent | null; notified: number };

function unprocessable(message: string, details: ErrorDetail[]): AppError {
  return new AppError("UNPROCESSABLE", message, { details });
}

/** CONFLICT: the version the editor loaded is no longer the story's. */
export const staleVersion = () =>
  new AppError(
    "CONFLICT",
    "Someone else saved this story after you opened it. Reload it to see their changes, then make yours again.",
    {
      details: [{ field: "version", issue: "is not the story's current version" }],
    },
  );

/** UNPROCESSABLE naming each section, author, entity or linked story that is not the account's. */
export async function assertIdsExist(
  db: Db,
  accountId: number,
  args: { sectionIds?: number[]; authorIds?: number[]; entityIds?: number[]; linkedStoryId?: string | null },
): Promise<void> {
  const details: ErrorDetail[] = [];
  // Locked FOR SHARE until the save commits (../shared.ts lockRows): a section or author deleted
  // meanwhile is either seen gone here, or waits and then sees the story filed under it.
  if (args.sectionIds?.length) {
    const found = await lockRows(db, "sections", { accountId, ids: args.sectionIds, mode: "share" });
    args.sectionIds.forEach((id, i) => {
      if (!found.has(id)) details.push({ field: `sectionIds.${i}`, issue: `there is no section ${id}` });
    });
  }
  if (args.authorIds?.length) {
    const found = await lockRows(db, "authors", { accountId, ids: args.authorIds, mode: "share" });
    args.authorIds.forEach((id, i) => {
      if (!found.has(id)) details.push({ field: `authorIds.${i}`, issue: `there is no author ${id}` });
    });
  }
  if (args.entityIds?.length) {
    const found = await lockRows(db, "entities", { accountId, ids: args.entityIds, mode: "share" });
    args.entityIds.forEach((id, i) => {
      if (!found.has(id)) details.push({ field: `entityIds.${i}`, issue: `there is no entity ${id}` });
    });
  }
  if (args.linkedStoryId) {
    const linked = await db.story.findFirst({ where: { accountId, id: args.linkedStoryId }, select: { id: true } });
    if (!linked) details.push({ field: "breakingNewsLinkedStoryId", issue: "there is no such story" });
  }
  if (details.length) throw unprocessable("The story refers to something that does not exist.", details);
}

/** Tag ids in order: existing tags by id, others found by name (their slug) or created. */
export async function resolveTags(
  db: Db,
  accountId: number,
  refs: readonly TStoryTagRef[],
  now: Date,
): Promise<number[]> {
  const ids: number[] = [];
  const details: ErrorDetail[] = [];
  const byId = refs.flatMap((ref) => ("id" in ref ? [ref.id] : []));
  // Locked like sections (assertIdsExist): a tag deleted meanwhile is missing here, not a foreign-key error later.
  const known = await lockRows(db, "tags", { accountId, ids: byId, mode: "share" });
  for (const [i, ref] of refs.entries()) {
    if ("id" in ref) {
      if (known.has(ref.id)) ids.push(ref.id);
      else details.push({ field: `tags.${i}.id`, issue: `there is no tag ${ref.id}` });
      continue;
    }
    const slug = slugify(ref.name);
    if (!slug) {
      details.push({ field: `tags.${i}.name`, issue: "needs at least one letter or digit" });
      continue;
    }
    const [existing] = await db.$queryRaw<{ id: number }[]>`
      SELECT id FROM tags WHERE account_id = ${accountId} AND slug = ${slug} FOR SHARE`;
    const tag =
      existing ??
      (await db.tag.create({ data: { accountId, name: ref.name, slug, createdAt: now }, select: { id: true } }));
    ids.push(tag.id);
  }
  if (details.length) throw unprocessable("Some tags do not exist.", details);
  return [...new Set(ids)];
}

/** The image keys a save sets: the hero image's, and every `…s3-key` in the cards (../image-refs.ts). */
export function storyImageRefs(fields: { heroImage?: { s3Key: string } | null; cards?: unknown }): ImageRef[] {
  return [
    ...(fields.heroImage?.s3Key ? [{ field: "heroImage.s3Key", key: fields.heroImage.s3Key }] : []),
    ...(fields.cards ? collectImageRefs(fields.cards, "cards") : []),
  ];
}

/** A free slug made from the headline: "the-headline", then "the-headline-2", "-3"… */
export async function generateSlug(db: Db, accountId: number, headline: string, exceptId?: string): Promise<string> {
  const base = slugify(headline, STORY_SLUG_MAX) || "story";
  const taken = new Set(
    (
      await db.story.findMany({
        where: { accountId, slug: { startsWith: base }, ...(exceptId ? { id: { not: exceptId } } : {}) },
        select: { slug: true },
      })
    ).map((s) => s.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** CONFLICT when another story of the account uses the slug. */
export async function assertStorySlugFree(db: Db, accountId: number, slug: string, exceptId?: string): Promise<void> {
  const other = await db.story.findFirst({
    where: { accountId, slug, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (other)
    throw new AppError("CONFLICT", `Another story already uses the slug "${slug}".`, {
      details: [{ field: "slug", issue: "is already used by another story" }],
    });
}

type StoryFields = Omit<z.output<typeof ZUpdateStoryInput>, "id" | "version">;

/** The columns a save writes (relations are written separately). */
export function scalarData(fields: StoryFields, previousSeo: unknown): Prisma.StoryUpdateManyMutationInput {
  const data: Prisma.StoryUpdateManyMutationInput = {};
  if (fields.headline !== undefined) data.headline = fields.headline;
  if (fields.subheadline !== undefined) data.subheadline = fields.subheadline;
  if (fields.summary !== undefined) data.summary = fields.summary;
  if (fields.access !== undefined) data.access = fields.access;
  if (fields.paywallAt !== undefined) data.paywallAt = fields.paywallAt;
  if (fields.storyTemplate !== undefined) data.storyTemplate = fields.storyTemplate;
  if (fields.isBreakingNews !== undefined) data.isBreakingNews = fields.isBreakingNews;
  if (fields.breakingNewsExpiresAt !== undefined) data.breakingNewsExpiresAt = fields.breakingNewsExpiresAt;
  if (fields.breakingNewsLinkedStoryId !== undefined) data.breakingNewsLinkedStoryId = fields.breakingNewsLinkedStoryId;
  if (fields.heroImage !== undefined) {
    const hero = fields.heroImage;
    data.heroImageS3Key = hero?.s3Key ?? null;
    data.heroImageCaption = cleanOptionalHtml(hero?.caption) ?? null;
    data.heroImageAttribution = cleanOptionalHtml(hero?.attribution) ?? null;
    data.heroImageMetadata = hero?.metadata ? hero.metadata : Prisma.DbNull;
  }
  if (fields.seo !== undefined) {
    const seo: Record<string, unknown> = isObject(previousSeo) ? { ...previousSeo } : {};
    if (fields.seo.metaTitle !== undefined) seo["meta-title"] = fields.seo.metaTitle;
    if (fields.seo.metaDescription !== undefined) seo["meta-description"] = fields.seo.metaDescription;
    if (fields.seo.metaKeywords !== undefined) seo["meta-keywords"] = fields.seo.metaKeywords;
    data.seo = seo as Prisma.InputJsonObject;
  }
  return data;
}

/** Replace the relations given (in order: the first section is the primary one); leave the others. */
export async function writeRelations(
  db: Db,
  storyId: string,
  ids: { sectionIds?: number[]; authorIds?: number[]; tagIds?: number[]; entityIds?: number[] },
): Promise<void> {
  if (ids.sectionIds) {
    await db.storySection.deleteMany({ where: { storyId } });
    await db.storySection.createMany({
      data: ids.sectionIds.map((sectionId, position) => ({ storyId, sectionId, position })),
    });
  }
  if (ids.authorIds) {
    await db.storyAuthor.deleteMany({ where: { storyId } });
    await db.storyAuthor.createMany({
      data: ids.authorIds.map((authorId, position) => ({ storyId, authorId, position })),
    });
  }
  if (ids.tagIds) {
    await db.storyTag.deleteMany({ where: { storyId } });
    await db.storyTag.createMany({ data: ids.tagIds.map((tagId, position) => ({ storyId, tagId, position })) });
  }
  if (ids.entityIds) {
    await db.storyEntity.deleteMany({ where: { storyId } });
    await db.storyEntity.createMany({ data: ids.entityIds.map((entityId) => ({ storyId, entityId })) });
  }
}

/** Columns named as the editor knows them (the hero image is one field; text and read time follow the cards). */
const EDITOR_FIELD: Record<string, string> = {
  heroImageS3Key: "heroImage",
  heroImageCaption: "heroImage",
  heroImageAttribution: "heroImage",
  heroImageMetadata: "heroImage",
  plainText: "cards",
  readTime: "cards",
  tagIds: "tags",
  entityIds: "entities",
};

/** What every save of a published story stamps itself: not an editor's change. */
const STAMPED_BY_SAVE = new Set(["lastPublishedAt"]);

/**
 * The fields a save really changes, for its audit entry: what is written (`after`, undefined for
 * what the save leaves alone) compared with the story as it was. Relations compare in order
 * (the first section is the primary one).
 */
export function changedStoryFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const comparable = (value: unknown) =>
    canonicalJson(
      value === Prisma.DbNull || value === undefined ? null : value instanceof Date ? value.toISOString() : value,
    );
  const changed = Object.keys(after).filter(
    (key) =>
      ownValue(after, key) !== undefined &&
      !STAMPED_BY_SAVE.has(key) &&
      comparable(ownValue(before, key)) !== comparable(ownValue(after, key)),
  );
  return [...new Set(changed.map((key) => ownValue(EDITOR_FIELD, key) ?? key))].sort();
}
