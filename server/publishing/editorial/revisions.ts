/**
 * A story's revision history: every save writes one, in the save's own transaction (./stories/write.ts),
 * so the history never disagrees with the story. A revision keeps the editor's fields as saved
 * (./revisions.schema.ts ZRevisionSnapshot) and the story version it produced.
 *
 * Autosaves are capped: an autosave by the editor whose autosave is the story's latest revision,
 * made less than AUTOSAVE_COALESCE_MS after that revision was first written, moves that revision
 * forward (version, snapshot, updatedAt) instead of adding one. An explicit save, a restore,
 * another editor's save, or ten minutes always start a new revision. So a morning of typing leaves
 * a few revisions an hour, not one every three seconds.
 */
import "server-only";

import { actorUserId, type Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { parseInput } from "../../validation";
import {
  AUTOSAVE_COALESCE_MS,
  ZRevisionInput,
  ZRevisionListInput,
  ZRevisionSnapshot,
  type TRevisionKind,
  type TRevisionListInput,
  type TRevisionListItem,
  type TRevisionSnapshot,
  type TRevisionView,
} from "./revisions.schema";
import type { TStoryEditorView, TUpdateStoryInput } from "./stories.schema";

/** What a revision keeps of the story as the editor sees it. */
function snapshotOf(view: TStoryEditorView): TRevisionSnapshot {
  return {
    headline: view.headline,
    subheadline: view.subheadline,
    slug: view.slug,
    summary: view.summary,
    cards: view.cards,
    sections: view.sections.map(({ id, name }) => ({ id, name })),
    authors: view.authors.map(({ id, name }) => ({ id, name })),
    tags: view.tags.map(({ id, name }) => ({ id, name })),
    entities: view.entities.map(({ id, name, type }) => ({ id, name, type })),
    heroImage: view.heroImage,
    seo: view.seo,
    access: view.access,
    paywallAt: view.paywallAt,
    storyTemplate: view.storyTemplate,
    isBreakingNews: view.isBreakingNews,
    breakingNewsExpiresAt: view.breakingNewsExpiresAt?.toISOString() ?? null,
    breakingNewsLinkedStoryId: view.breakingNewsLinkedStoryId,
  };
}

/** Record the save that just produced `view` (inside the save's transaction). */
export async function recordRevision(
  tx: Db,
  args: { actor: Actor; storyId: string; kind: TRevisionKind; view: TStoryEditorView; now: Date },
): Promise<void> {
  const { actor, storyId, kind, view, now } = args;
  const staffUserId = actorUserId(actor);
  const snapshot = snapshotOf(view) as unknown as Prisma.InputJsonObject;
  if (kind === "autosave" && staffUserId) {
    const latest = await tx.storyRevision.findFirst({
      where: { storyId },
      orderBy: { version: "desc" },
      select: { id: true, kind: true, staffUserId: true, createdAt: true },
    });
    if (
      latest &&
      latest.kind === "autosave" &&
      latest.staffUserId === staffUserId &&
      now.getTime() - latest.createdAt.getTime() < AUTOSAVE_COALESCE_MS
    ) {
      await tx.storyRevision.update({
        where: { id: latest.id },
        data: { version: view.version, snapshot, updatedAt: now },
      });
      return;
    }
  }
  await tx.storyRevision.create({
    data: {
      storyId,
      accountId: actor.accountId,
      version: view.version,
      kind,
      snapshot,
      staffUserId,
      createdAt: now,
      updatedAt: now,
    },
  });
}

const LIST_SELECT = {
  id: true,
  version: true,
  kind: true,
  staffUserId: true,
  createdAt: true,
  updatedAt: true,
  snapshot: true,
} satisfies Prisma.StoryRevisionSelect;
type RevisionRow = Prisma.StoryRevisionGetPayload<{ select: typeof LIST_SELECT }>;

async function staffNames(db: Db, accountId: number, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (!wanted.length) return new Map();
  const users = await db.adminUser.findMany({
    where: { accountId, id: { in: wanted } },
    select: { id: true, name: true },
  });
  return new Map(users.map((u) => [u.id, u.name]));
}

function parseSnapshot(row: RevisionRow): TRevisionSnapshot {
  const parsed = ZRevisionSnapshot.safeParse(row.snapshot);
  if (!parsed.success) throw new AppError("INTERNAL", `Revision ${row.id} holds a snapshot this version cannot read.`);
  return parsed.data;
}

function toItem(row: RevisionRow, names: Map<string, string>): TRevisionListItem {
  const snapshot = row.snapshot as { headline?: unknown } | null;
  return {
    id: row.id,
    version: row.version,
    kind: row.kind as TRevisionKind,
    savedBy: row.staffUserId ? (names.get(row.staffUserId) ?? null) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    headline: typeof snapshot?.headline === "string" ? snapshot.headline : "",
  };
}

async function assertStory(db: Db, accountId: number, storyId: string): Promise<void> {
  const story = await db.story.findFirst({ where: { id: storyId, accountId }, select: { id: true } });
  if (!story) throw new AppError("NOT_FOUND", "Story not found.");
}

/** A page of the story's revisions, newest first. */
export async function listRevisions(
  db: Db,
  args: { actor: Actor } & TRevisionListInput,
): Promise<{ items: TRevisionListItem[]; total: number; offset: number; limit: number }> {
  const { storyId, offset, limit } = parseInput(ZRevisionListInput, args);
  const accountId = args.actor.accountId;
  await assertStory(db, accountId, storyId);
  const where = { storyId, accountId };
  const [total, rows] = await Promise.all([
    db.storyRevision.count({ where }),
    db.storyRevision.findMany({ where, orderBy: { version: "desc" }, skip: offset, take: limit, select: LIST_SELECT }),
  ]);
  const names = await staffNames(
    db,
    accountId,
    rows.map((r) => r.staffUserId),
  );
  return { items: rows.map((row) => toItem(row, names)), total, offset, limit };
}

/** One revision with its snapshot, and the one before it (to show what this save changed). */
export async function getRevision(
  db: Db,
  args: { actor: Actor; storyId: string; revisionId: number },
): Promise<TRevisionView> {
  const { storyId, revisionId } = parseInput(ZRevisionInput, args);
  const accountId = args.actor.accountId;
  const row = await db.storyRevision.findFirst({ where: { id: revisionId, storyId, accountId }, select: LIST_SELECT });
  if (!row) throw new AppError("NOT_FOUND", "Revision not found.");
  const [names, previous] = await Promise.all([
    staffNames(db, accountId, [row.staffUserId]),
    db.storyRevision.findFirst({
      where: { storyId, accountId, version: { lt: row.version } },
      orderBy: { version: "desc" },
      select: LIST_SELECT,
    }),
  ]);
  return {
    ...toItem(row, names),
    snapshot: parseSnapshot(row),
    previous: previous ? { version: previous.version, snapshot: parseSnapshot(previous) } : null,
  };
}

/**
 * A revision as the fields of a save (./stories/write.ts restoreRevision). Sections, authors and
 * entities deleted since are left out (the save would refuse them); tags go by id when the tag
 * still exists, else by name (found or created again).
 */
export async function revisionForRestore(
  db: Db,
  args: { actor: Actor; storyId: string; revisionId: number },
): Promise<Omit<TUpdateStoryInput, "id" | "version">> {
  const accountId = args.actor.accountId;
  const { snapshot: s } = await getRevision(db, args);
  const ids = (list: { id: number }[]) => list.map((x) => x.id);
  const [sections, authors, entities, tags] = await Promise.all([
    db.section.findMany({ where: { accountId, deletedAt: null, id: { in: ids(s.sections) } }, select: { id: true } }),
    db.author.findMany({ where: { accountId, id: { in: ids(s.authors) } }, select: { id: true } }),
    db.entity.findMany({ where: { accountId, deletedAt: null, id: { in: ids(s.entities) } }, select: { id: true } }),
    db.tag.findMany({ where: { accountId, id: { in: ids(s.tags) } }, select: { id: true } }),
  ]);
  const alive = (rows: { id: number }[]) => new Set(rows.map((r) => r.id));
  const [liveSections, liveAuthors, liveEntities, liveTags] = [sections, authors, entities, tags].map(alive);
  return {
    headline: s.headline,
    subheadline: s.subheadline,
    slug: s.slug,
    summary: s.summary,
    cards: s.cards,
    sectionIds: ids(s.sections).filter((id) => liveSections!.has(id)),
    authorIds: ids(s.authors).filter((id) => liveAuthors!.has(id)),
    entityIds: ids(s.entities).filter((id) => liveEntities!.has(id)),
    tags: s.tags.map((t) => (liveTags!.has(t.id) ? { id: t.id } : { name: t.name })),
    heroImage: s.heroImage
      ? {
          s3Key: s.heroImage.s3Key,
          caption: s.heroImage.caption,
          attribution: s.heroImage.attribution,
          ...(s.heroImage.metadata ? { metadata: s.heroImage.metadata } : {}),
        }
      : null,
    seo: s.seo,
    access: s.access as TUpdateStoryInput["access"],
    // A revision from before editors set paywall points leaves the story's point as it is.
    ...(s.paywallAt !== undefined ? { paywallAt: s.paywallAt } : {}),
    storyTemplate: s.storyTemplate,
    isBreakingNews: s.isBreakingNews,
    breakingNewsExpiresAt: s.breakingNewsExpiresAt ? new Date(s.breakingNewsExpiresAt) : null,
    breakingNewsLinkedStoryId: s.breakingNewsLinkedStoryId,
  };
}
