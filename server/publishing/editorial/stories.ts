/**
 * Writing stories in the dashboard: list, read, create, edit, move through the workflow, delete
 * drafts. Every function is scoped to the actor's account (another account's story is NOT_FOUND).
 *
 * Vocabulary:
 * - version: bumped by every save and every move; callers send the version they loaded, and a
 *   stale one is refused with CONFLICT, so two editors saving at once never overwrite each other
 *   silently. The check is repeated in the UPDATE's WHERE, so it also holds under a race.
 * - move: a workflow transition (./workflow.ts). A move, and a save of a published story, emit a
 *   CONTENT webhook event (./events.ts) in the same transaction as the change and its audit entry;
 *   the caller dispatches the returned delivery ids after the commit.
 * - cards: stored in the wire shape; every HTML field is reduced to one allow-list and every link
 *   checked by one URL rule (./sanitize.ts), and plain text and read time are recomputed from them
 *   on every save.
 */
import "server-only";

import { randomUUID } from "node:crypto";

import type { z } from "zod";

import { recordAudit } from "../../audit/audit-log";
import { actorUserId, type Actor } from "../../auth/actor";
import { purgeResponses } from "../../cache/response-cache";
import type { Db, TransactionClient } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError, type ErrorDetail } from "../../errors";
import { Prisma, type StoryStatus } from "../../generated/prisma/client";
import { cancelJob } from "../../jobs/queue";
import { parseInput } from "../../validation";
import { canonicalJson } from "../bulk";
import type { TCard } from "../cards.schema";
import { getPublisher } from "../publisher";
import { cardsPlainText, readTimeMinutes, STORY_INCLUDE, storyUrl, type StoryWithRelations } from "../story-view";
import { emitStoryEvent } from "./events";
import { assertImageRefsAllowed, collectImageRefs, type ImageRef } from "./image-refs";
import { slugify } from "./organise.schema";
import { recordRevision, revisionForRestore } from "./revisions";
import { ZRestoreRevisionInput, type TRestoreRevisionInput, type TRevisionKind } from "./revisions.schema";
import { cleanCardFields, cleanOptionalHtml, cleanStoryElement, storedCardIssues } from "./sanitize";
import { lockRows } from "./shared";
import {
  STORY_SLUG_MAX,
  tweetIdFromUrl,
  youtubeVideoId,
  ZCreateStoryInput,
  ZStoryEntitySearchInput,
  ZTransitionStoryInput,
  ZUpdateStoryInput,
  type TContentWorkflowEvent,
  type TCreateStoryInput,
  type TStoryAction,
  type TStoryEditorView,
  type TStoryTagRef,
  type TTransitionStoryInput,
  type TUpdateStoryInput,
} from "./stories.schema";
import { checkElement } from "./story-elements";
import { canDelete, eventForSave, movesFrom, resolveMove } from "./workflow";

/** What every write needs besides its input: who, when, and the app's URL (the site URL's fallback). */
export type WriteContext = { actor: Actor; now: Date; appUrl: string };

/**
 * A save's or a move's outcome: the story as saved, the event it sent (delivered after the commit)
 * and to how many webhooks (0 when none subscribes to it).
 */
export type StoryWriteOutcome = { story: TStoryEditorView; event: TContentWorkflowEvent | null; notified: number };

// ─── Sanitising and normalising cards ────────────────────────────────────────────────────────

/** Card fields that say when and in which version a card changed: left out when comparing contents. */
const CARD_BOOKKEEPING = ["card-added-at", "card-updated-at", "version", "content-version-id", "content-id"] as const;

/** The card without its bookkeeping, as JSON with sorted keys (the database does not keep key order). */
function cardContent(card: TCard): string {
  const copy: Record<string, unknown> = { ...card };
  for (const key of CARD_BOOKKEEPING) delete copy[key];
  return stableJson(copy);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * Cards as they are stored: HTML sanitised and links checked, YouTube and tweet ids derived from
 * their URLs, and each card's version and times kept when its content did not change (bumped when it did).
 */
export function normalizeCards(cards: readonly TCard[], previous: readonly TCard[], now: Date): TCard[] {
  const details: ErrorDetail[] = [];
  const before = new Map(previous.map((card) => [card.id, card]));
  const at = now.getTime();
  const result = cards.map((card, c) => {
    const elements = card["story-elements"].map((raw, e) => {
      const field = `cards.${c}.story-elements.${e}`;
      // Every HTML field through the allow-list, every link through the URL rule (./sanitize.ts).
      const element = cleanStoryElement(raw, field, details);
      if (element.type === "text") return { ...element, text: (element.text ?? "").trim() };
      if (element.type === "youtube-video") {
        const videoId = element.url ? youtubeVideoId(element.url) : (element["video-id"] ?? null);
        if (!videoId) {
          details.push({ field: `${field}.url`, issue: "is not a YouTube video URL" });
          return element;
        }
        return {
          ...element,
          "video-id": videoId,
          url: `https://www.youtube.com/watch?v=${videoId}`,
          "embed-url": `https://www.youtube.com/embed/${videoId}`,
        };
      }
      if (element.type === "jsembed" && element.subtype === "tweet") {
        const tweetId = element.url ? tweetIdFromUrl(element.url) : (element["tweet-id"] ?? null);
        if (!tweetId) {
          details.push({ field: `${field}.url`, issue: "is not a tweet URL (https://x.com/<user>/status/<id>)" });
          return element;
        }
        return { ...element, "tweet-id": tweetId };
      }
      if (element.type === "image" && !element["image-s3-key"])
        details.push({ field: `${field}.image-s3-key`, issue: "is required" });
      // Quotes, big facts, galleries, files and other embeds (./story-elements.ts).
      return checkElement(element, field, details);
    });
    const next: TCard = {
      ...card,
      ...cleanCardFields(card, `cards.${c}`, details),
      "story-elements": elements,
      "content-id": card["content-id"] ?? card.id,
    };
    const old = before.get(card.id);
    if (old && cardContent(old) === cardContent(next)) {
      return {
        ...next,
        version: old.version,
        "card-added-at": old["card-added-at"] ?? at,
        "card-updated-at": old["card-updated-at"] ?? at,
        "content-version-id": old["content-version-id"] ?? randomUUID(),
      };
    }
    return {
      ...next,
      version: old ? old.version + 1 : 1,
      "card-added-at": old?.["card-added-at"] ?? at,
      "card-updated-at": at,
      "content-version-id": randomUUID(),
    };
  });
  if (!details.length) details.push(...storedCardIssues(result));
  if (details.length) throw new AppError("BAD_REQUEST", "Some story elements are not valid.", { details });
  return result;
}

// ─── Helpers ─────────────────────────────────────────────────────────────────────────────────

function unprocessable(message: string, details: ErrorDetail[]): AppError {
  return new AppError("UNPROCESSABLE", message, { details });
}

const staleVersion = () =>
  new AppError(
    "CONFLICT",
    "Someone else saved this story after you opened it. Reload it to see their changes, then make yours again.",
    {
      details: [{ field: "version", issue: "is not the story's current version" }],
    },
  );

async function assertIdsExist(
  db: Db,
  accountId: number,
  args: { sectionIds?: number[]; authorIds?: number[]; entityIds?: number[]; linkedStoryId?: string | null },
): Promise<void> {
  const details: ErrorDetail[] = [];
  // Locked FOR SHARE until the save commits (./shared.ts lockRows): a section or author deleted
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
async function resolveTags(db: Db, accountId: number, refs: readonly TStoryTagRef[], now: Date): Promise<number[]> {
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

/** The image keys a save sets: the hero image's, and every `…s3-key` in the cards (./image-refs.ts). */
function storyImageRefs(fields: { heroImage?: { s3Key: string } | null; cards?: unknown }): ImageRef[] {
  return [
    ...(fields.heroImage?.s3Key ? [{ field: "heroImage.s3Key", key: fields.heroImage.s3Key }] : []),
    ...(fields.cards ? collectImageRefs(fields.cards, "cards") : []),
  ];
}

/** A free slug made from the headline: "the-headline", then "the-headline-2", "-3"… */
async function generateSlug(db: Db, accountId: number, headline: string, exceptId?: string): Promise<string> {
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

async function assertSlugFree(db: Db, accountId: number, slug: string, exceptId?: string): Promise<void> {
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
function scalarData(fields: StoryFields, previousSeo: unknown): Prisma.StoryUpdateManyMutationInput {
  const data: Prisma.StoryUpdateManyMutationInput = {};
  if (fields.headline !== undefined) data.headline = fields.headline;
  if (fields.subheadline !== undefined) data.subheadline = fields.subheadline;
  if (fields.summary !== undefined) data.summary = fields.summary;
  if (fields.access !== undefined) data.access = fields.access;
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function writeRelations(
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

// ─── Reading ─────────────────────────────────────────────────────────────────────────────────

/** `siteUrl` is null while the publication has no site URL of its own (Settings): no page to link to. */
function toEditorView(story: StoryWithRelations, siteUrl: string | null): TStoryEditorView {
  const seo = isObject(story.seo) ? story.seo : {};
  const keywords = seo["meta-keywords"];
  return {
    id: story.id,
    status: story.status,
    version: story.version,
    storyVersionId: story.storyVersionId,
    headline: story.headline,
    subheadline: story.subheadline,
    slug: story.slug,
    summary: story.summary,
    cards: story.cards as TCard[],
    sections: story.sections.map((s) => ({ id: s.section.id, name: s.section.name })),
    authors: story.authors.map((a) => ({ id: a.author.id, name: a.author.name })),
    tags: story.tags.map((t) => ({ id: t.tag.id, name: t.tag.name, slug: t.tag.slug })),
    entities: story.entities
      .map((e) => ({ id: e.entity.id, name: e.entity.name, type: e.entity.type }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
    heroImage: story.heroImageS3Key
      ? {
          s3Key: story.heroImageS3Key,
          caption: story.heroImageCaption,
          attribution: story.heroImageAttribution,
          metadata: isObject(story.heroImageMetadata) ? story.heroImageMetadata : null,
        }
      : null,
    seo: {
      metaTitle: typeof seo["meta-title"] === "string" ? seo["meta-title"] : null,
      metaDescription: typeof seo["meta-description"] === "string" ? seo["meta-description"] : null,
      metaKeywords: Array.isArray(keywords) ? keywords.filter((k): k is string => typeof k === "string") : [],
    },
    access: story.access,
    storyTemplate: story.storyTemplate,
    isBreakingNews: story.isBreakingNews,
    breakingNewsExpiresAt: story.breakingNewsExpiresAt,
    breakingNewsLinkedStoryId: story.breakingNewsLinkedStoryId,
    readTime: story.readTime,
    publishedAt: story.publishedAt,
    publishAt: story.publishAt,
    firstPublishedAt: story.firstPublishedAt,
    lastPublishedAt: story.lastPublishedAt,
    createdAt: story.createdAt,
    updatedAt: story.updatedAt,
    url: siteUrl ? storyUrl(siteUrl, story.slug) : null,
    moves: movesFrom(story.status).map((m) => ({ action: m.action, to: m.to, label: m.label })),
    canDelete: canDelete(story.status),
  };
}

/** The story as the editor sees it, inside a write's transaction (for its revision; no site URL needed). */
async function loadEditorView(tx: Db, id: string): Promise<TStoryEditorView> {
  const story = await tx.story.findUniqueOrThrow({ where: { id }, include: STORY_INCLUDE });
  return toEditorView(story, null);
}

/** One story as the editor sees it, with the workflow moves open to it. */
export async function getStory(db: Db, args: { actor: Actor; id: string; appUrl: string }): Promise<TStoryEditorView> {
  const story = await db.story.findFirst({
    where: { id: args.id, accountId: args.actor.accountId },
    include: STORY_INCLUDE,
  });
  if (!story) throw new AppError("NOT_FOUND", "Story not found.");
  const publisher = await getPublisher(db, args.actor.accountId, { appUrl: args.appUrl });
  return toEditorView(story, publisher.siteUrlSet ? publisher.siteUrl : null);
}

// The stories list (search, filters, sort, paging) and bulk actions: ./story-finding.ts.

/** Sections, authors and tags to choose from in the story form. */
export async function listStoryFormOptions(db: Db, args: { actor: Actor; appUrl: string }) {
  const accountId = args.actor.accountId;
  const [sections, authors, tags, publisher] = await Promise.all([
    db.section.findMany({
      where: { accountId, deletedAt: null },
      orderBy: [{ position: "asc" }, { name: "asc" }],
      select: { id: true, name: true, parentId: true },
    }),
    db.author.findMany({ where: { accountId }, orderBy: { name: "asc" }, select: { id: true, name: true } }),
    db.tag.findMany({
      where: { accountId },
      orderBy: { name: "asc" },
      take: 2_000,
      select: { id: true, name: true, slug: true },
    }),
    getPublisher(db, accountId, { appUrl: args.appUrl }),
  ]);
  return { sections, authors, tags, siteUrl: publisher.siteUrlSet ? publisher.siteUrl : null };
}

/** The account's live entities whose name contains every word of `search`, by name. */
export async function searchStoryEntities(
  db: Db,
  args: { actor: Actor; search?: string; limit?: number },
): Promise<{ id: number; name: string; type: string }[]> {
  const { search, limit } = parseInput(ZStoryEntitySearchInput, { search: args.search, limit: args.limit });
  const words = search.split(/\s+/).filter(Boolean).slice(0, 10);
  return db.entity.findMany({
    where: {
      accountId: args.actor.accountId,
      deletedAt: null,
      ...(words.length
        ? { AND: words.map((word) => ({ name: { contains: word, mode: "insensitive" as const } })) }
        : {}),
    },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, name: true, type: true },
  });
}

// ─── Writing ─────────────────────────────────────────────────────────────────────────────────

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
      if (fields.slug) await assertSlugFree(tx, accountId, slug);
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
        await assertSlugFree(tx, accountId, fields.slug, id);
        slug = fields.slug;
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
      // Images the story already shows stay allowed; new ones must be the account's (./image-refs.ts).
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
function changedStoryFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const comparable = (value: unknown) =>
    canonicalJson(
      value === Prisma.DbNull || value === undefined ? null : value instanceof Date ? value.toISOString() : value,
    );
  const changed = Object.keys(after).filter(
    (key) =>
      after[key] !== undefined && !STAMPED_BY_SAVE.has(key) && comparable(before[key]) !== comparable(after[key]),
  );
  return [...new Set(changed.map((key) => EDITOR_FIELD[key] ?? key))].sort();
}

/** Publishing stamps the times; other moves leave them as they are. */
function timesForMove(
  to: StoryStatus,
  current: { firstPublishedAt: Date | null },
  now: Date,
): Prisma.StoryUpdateManyMutationInput {
  if (to !== "PUBLISHED") return {};
  return { publishedAt: now, lastPublishedAt: now, ...(current.firstPublishedAt ? {} : { firstPublishedAt: now }) };
}

/**
 * Move a story through the workflow (./workflow.ts). An illegal move is UNPROCESSABLE and names the
 * current status; a stale `version` is CONFLICT. Emits the move's event.
 */
export async function transitionStory(
  db: Db,
  args: WriteContext & { input: TTransitionStoryInput },
): Promise<StoryWriteOutcome> {
  const { id, version, action } = parseInput(ZTransitionStoryInput, args.input);
  const { actor, now } = args;
  const outcome = await withTransaction(db, (tx) =>
    moveStory(tx, { actor, id, version, action, now, appUrl: args.appUrl }),
  );
  return { story: await getStory(db, { actor, id, appUrl: args.appUrl }), ...outcome };
}

/** The key of a story's scheduled publication in the job list (server/jobs). */
export const scheduledPublicationKey = (storyId: string) => `story.publish:${storyId}`;

/**
 * One workflow move inside the caller's transaction: the status change, its audit entry and its
 * event. `version`: the version the caller saw (a stale one is CONFLICT), or null to move the
 * current version (the scheduler publishing an approved story). Any move ends a scheduled
 * publication: the story has left the state it was scheduled in.
 */
export async function moveStory(
  tx: TransactionClient,
  args: {
    actor: Actor;
    id: string;
    version: number | null;
    action: TStoryAction;
    now: Date;
    appUrl: string;
  },
): Promise<{ event: TContentWorkflowEvent; notified: number }> {
  const { actor, id, action, now } = args;
  const accountId = actor.accountId;
  const current = await tx.story.findFirst({
    where: { id, accountId },
    select: { status: true, version: true, firstPublishedAt: true, headline: true, publishAt: true },
  });
  if (!current) throw new AppError("NOT_FOUND", "Story not found.");
  const version = args.version ?? current.version;
  if (current.version !== version) throw staleVersion();
  const resolved = resolveMove(current.status, action);
  if (!resolved.ok)
    throw new AppError("UNPROCESSABLE", resolved.reason, {
      details: [{ field: "action", issue: `not possible while the story is ${current.status.toLowerCase()}` }],
    });
  const { move } = resolved;
  const updated = await tx.story.updateMany({
    where: { id, accountId, version, status: current.status },
    data: {
      status: move.to,
      version: { increment: 1 },
      storyVersionId: randomUUID(),
      updatedAt: now,
      publishAt: null,
      ...timesForMove(move.to, current, now),
    },
  });
  if (updated.count === 0) throw staleVersion();
  if (current.publishAt) await cancelJob(tx, { key: scheduledPublicationKey(id), now });
  await recordAudit(tx, {
    actor,
    action: `story.${action}`,
    targetType: "story",
    targetId: id,
    metadata: { headline: current.headline, from: current.status, to: move.to, version: version + 1 },
    now,
  });
  const notified = await emitStoryEvent(tx, {
    storyId: id,
    name: move.event,
    actor,
    previousStatus: current.status,
    now,
    appUrl: args.appUrl,
  });
  return { event: move.event, notified };
}

/** Delete a draft for good. Anything else must be moved back to draft first. */
export async function deleteStory(
  db: Db,
  args: { actor: Actor; id: string; version: number; now: Date },
): Promise<void> {
  const { actor, id, version, now } = args;
  const accountId = actor.accountId;
  await withTransaction(db, async (tx) => {
    // Locked first: of two deletes of the same story the second waits, then finds it gone (404);
    // a collection adding it meanwhile either finds it gone or is cascaded (./shared.ts lockRows).
    const locked = await lockRows(tx, "stories", { accountId, ids: [id], mode: "update" });
    const current = locked.has(id)
      ? await tx.story.findFirst({
          where: { id, accountId },
          select: { status: true, version: true, headline: true, slug: true },
        })
      : null;
    if (!current) throw new AppError("NOT_FOUND", "Story not found.");
    if (current.version !== version) throw staleVersion();
    if (!canDelete(current.status)) {
      throw new AppError(
        "UNPROCESSABLE",
        `Only drafts can be deleted; this story is ${current.status.toLowerCase()}.`,
        {
          details: [{ field: "id", issue: `the story is ${current.status.toLowerCase()}` }],
        },
      );
    }
    const deleted = await tx.story.deleteMany({ where: { id, accountId, version, status: "DRAFT" } });
    if (deleted.count === 0) throw staleVersion();
    const linking = await tx.story.findMany({
      where: { accountId, breakingNewsLinkedStoryId: id, status: "PUBLISHED" },
      select: { id: true },
    });
    await tx.story.updateMany({
      where: { accountId, breakingNewsLinkedStoryId: id },
      data: { breakingNewsLinkedStoryId: null },
    });
    // Published breaking news linking to the draft lose the link: their responses change.
    await purgeResponses(
      tx,
      accountId,
      linking.map((story) => `s/${story.id}`),
    );
    await recordAudit(tx, {
      actor,
      action: "story.delete",
      targetType: "story",
      targetId: id,
      metadata: { headline: current.headline, slug: current.slug },
      now,
    });
  });
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
