/** Reading stories in the dashboard: one story as the editor sees it, and what the story form offers. */
import "server-only";

import type { Actor } from "../../../auth/actor";
import type { Db } from "../../../db/client";
import { AppError } from "../../../errors";
import { parseInput } from "../../../validation";
import type { TCard } from "../../cards.schema";
import { getPublisher } from "../../publisher";
import { STORY_INCLUDE, storyUrl, type StoryWithRelations } from "../../story-view";
import { authorshipRefusal, SELF_APPROVAL_REFUSAL, type StoryGate } from "../authorship";
import { asObject, isObject } from "../shared";
import { ZStoryEntitySearchInput, type TStoryEditorView } from "../stories.schema";
import { canDelete, movesFrom } from "../workflow";

/** `siteUrl` is null while the publication has no site URL of its own (Settings): no page to link to. */
function toEditorView(story: StoryWithRelations, siteUrl: string | null): TStoryEditorView {
  const seo = asObject(story.seo);
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
    paywallAt: story.paywallAt,
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
    canEdit: true,
    canSchedule: true,
    blockedMoves: [],
    scheduleBlockedReason: null,
  };
}

/** The story as the editor sees it, inside a write's transaction (for its revision; no site URL needed). */
export async function loadEditorView(tx: Db, id: string): Promise<TStoryEditorView> {
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
  const [publisher, account] = await Promise.all([
    getPublisher(db, args.actor.accountId, { appUrl: args.appUrl }),
    db.account.findUnique({ where: { id: args.actor.accountId }, select: { noSelfApproval: true } }),
  ]);
  const view = toEditorView(story, publisher.siteUrlSet ? publisher.siteUrl : null);
  // Only what this user may do: the buttons shown are the moves the services will accept.
  const refusal = (gate: StoryGate) =>
    authorshipRefusal({ actor: args.actor, gate, story, noSelfApproval: account?.noSelfApproval ?? false });
  const may = (gate: StoryGate) => refusal(gate) === null;
  // What the self-approval rule holds back is shown disabled with its reason, not hidden.
  const selfApproval = (gate: StoryGate) => (refusal(gate) === SELF_APPROVAL_REFUSAL ? SELF_APPROVAL_REFUSAL : null);
  return {
    ...view,
    moves: view.moves.filter((m) => may(m.action)),
    blockedMoves: view.moves.flatMap((m) => {
      const reason = selfApproval(m.action);
      return reason ? [{ ...m, reason }] : [];
    }),
    canDelete: view.canDelete && may("delete"),
    canEdit: may("edit"),
    canSchedule: may("schedule"),
    scheduleBlockedReason: story.status === "APPROVED" ? selfApproval("schedule") : null,
  };
}

// The stories list (search, filters, sort, paging) and bulk actions: ../story-finding.ts.

/** Sections, authors and tags to choose from in the story form. */
export async function listStoryFormOptions(db: Db, args: { actor: Actor; appUrl: string }) {
  const accountId = args.actor.accountId;
  const [sections, authors, tags, publisher, account] = await Promise.all([
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
    db.account.findUniqueOrThrow({ where: { id: accountId }, select: { paywallDefaultElements: true } }),
  ]);
  return {
    sections,
    authors,
    tags,
    siteUrl: publisher.siteUrlSet ? publisher.siteUrl : null,
    paywallDefaultElements: account.paywallDefaultElements,
  };
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
