/**
 * A collection of another site's content API (content-api-collections.ts) becomes a collection
 * of the account, quietly (no "collection-update" event, as stories' imports are quiet):
 *
 * - Recorded as kind "collection" by its slug (import_records): a second run skips it.
 * - A collection the account already has under that slug (made in the dashboard, or a section's
 *   collection the import made with the section) is kept as it is, items and all, and recorded
 *   for the collections holding it: skipped, saying so.
 * - Manual: its items in order, each story the one the import made of it (a story the import
 *   refused or never listed is left out, noted) and each nested collection the one imported or
 *   found before it (children come first); associated metadata kept.
 * - Automated: its rules, the old site's section and author ids read as slugs and found by slug in
 *   the account; a rule naming what the account does not have refuses the collection.
 * - Slug, name, summary, template and metadata checked as the dashboard checks a new collection
 *   (ZCreateCollectionInput; else refused, naming the field); the metadata sanitised as the
 *   dashboard saves it, its images on the account's external image hosts (else refused).
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { AppError } from "../../errors";
import type { Prisma } from "../../generated/prisma/client";
import { assertMetadataImagesAllowed } from "../../publishing/editorial/image-refs";
import { ZCreateCollectionInput } from "../../publishing/editorial/organise.schema";
import { cleanMetadataOrThrow } from "../../publishing/editorial/sanitize";
import { DRY_RUN_ID } from "../mappings";
import type { ImportContext, ItemPlan } from "../types";
import type { ContentCollection } from "./content-api-collections";
import { STORY_KIND } from "./story-plan";

export const COLLECTION_KIND = "collection";

type ResolvedItem = { storyId?: string; childSlug?: string; childId?: string; associatedMetadata: unknown };

/**
 * The account's ids of `slugs` (sections or authors), or the slugs it lacks. In a dry run, what
 * the run's stories would have made (terms.ts records them by slug) counts as there.
 */
async function idsBySlug(db: Db, ctx: ImportContext, kind: "section" | "author", slugs: string[]) {
  const where = { accountId: ctx.accountId, slug: { in: slugs } };
  const rows =
    kind === "section"
      ? await db.section.findMany({ where: { ...where, deletedAt: null }, select: { id: true, slug: true } })
      : await db.author.findMany({ where, select: { id: true, slug: true } });
  const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
  const missing: string[] = [];
  for (const slug of slugs) {
    if (bySlug.has(slug)) continue;
    if (ctx.dryRun && (await ctx.lookup(db, { kind, sourceId: slug })) === DRY_RUN_ID) bySlug.set(slug, 0);
    else missing.push(slug);
  }
  return { ids: slugs.flatMap((s) => bySlug.get(s) ?? []), missing };
}

/** In a dry run: whether `slug` is the collection of a section the run's stories would have made. */
async function madeWithItsSection(db: Db, ctx: ImportContext, slug: string): Promise<boolean> {
  const section = /^section-(.+)$/.exec(slug)?.[1];
  return (
    ctx.dryRun && section !== undefined && (await ctx.lookup(db, { kind: "section", sourceId: section })) === DRY_RUN_ID
  );
}

/** The stored rules (ZStoredCollectionRules) of an automated collection, or why not. */
async function storedRules(db: Db, ctx: ImportContext, c: ContentCollection) {
  const rules: Record<string, unknown> = {};
  const missing: string[] = [];
  if (c.rules.sectionSlugs) {
    const found = await idsBySlug(db, ctx, "section", c.rules.sectionSlugs);
    rules["section-ids"] = found.ids;
    missing.push(...found.missing.map((s) => `section "${s}"`));
  }
  if (c.rules.authorSlugs) {
    const found = await idsBySlug(db, ctx, "author", c.rules.authorSlugs);
    rules["author-ids"] = found.ids;
    missing.push(...found.missing.map((s) => `author "${s}"`));
  }
  if (c.rules.tagSlugs) rules["tag-slugs"] = c.rules.tagSlugs;
  if (c.rules.storyTemplates) rules["story-templates"] = c.rules.storyTemplates;
  if (c.rules.sort) rules.sort = c.rules.sort;
  return { rules, missing };
}

export async function planCollection(db: Db, c: ContentCollection, ctx: ImportContext): Promise<ItemPlan> {
  const key = { kind: COLLECTION_KIND, sourceId: c.slug };
  const known = await ctx.lookup(db, key);
  if (known !== null) return { action: "skip", reason: `imported before (collection ${known})` };
  if (c.errors.length > 0) return { action: "refuse", reason: c.errors.join("; ") };
  const input = ZCreateCollectionInput.safeParse({
    name: c.name,
    slug: c.slug,
    summary: c.summary,
    template: c.template,
    metadata: c.metadata,
  });
  if (!input.success) {
    const issue = input.error.issues[0]!;
    return { action: "refuse", reason: `its ${issue.path.join(".")} is not one Masthead takes: ${issue.message}` };
  }
  const slug = input.data.slug ?? c.slug;
  const existing = await db.collection.findUnique({
    where: { accountId_slug: { accountId: ctx.accountId, slug } },
    select: { id: true, deletedAt: true },
  });
  if (!existing && (await madeWithItsSection(db, ctx, slug))) {
    return {
      action: "skip",
      reason: `the account has a collection "${slug}" (its section's): left as it is`,
      remember: [key],
    };
  }
  if (existing && existing.deletedAt === null) {
    return {
      action: "skip",
      reason: `the account has a collection "${slug}" (#${existing.id}): left as it is`,
      remember: [key],
      apply: (tx) => ctx.record(tx, { ...key, targetId: existing.id, created: false }),
    };
  }
  if (existing) {
    return { action: "refuse", reason: `a deleted collection of the account has the slug "${slug}"` };
  }

  let metadata: Record<string, unknown>;
  try {
    metadata = cleanMetadataOrThrow(c.metadata, "metadata");
    await assertMetadataImagesAllowed(db, { accountId: ctx.accountId, metadata });
  } catch (error) {
    if (error instanceof AppError) return { action: "refuse", reason: `its metadata: ${error.message}` };
    throw error;
  }

  let rules: Record<string, unknown> = {};
  if (c.automated) {
    const stored = await storedRules(db, ctx, c);
    if (stored.missing.length > 0) {
      return {
        action: "refuse",
        reason: `its rules name ${stored.missing.join(", ")}, which the account does not have: import the stories first`,
      };
    }
    rules = stored.rules;
  }

  const items: ResolvedItem[] = [];
  let leftOut = 0;
  for (const item of c.items) {
    if (item.type === "story") {
      const storyId = await ctx.lookup(db, { kind: STORY_KIND, sourceId: item.storyId });
      if (storyId === null) leftOut++;
      else items.push({ storyId, associatedMetadata: item.associatedMetadata });
    } else {
      const childId =
        (await ctx.lookup(db, { kind: COLLECTION_KIND, sourceId: item.slug })) ??
        (
          await db.collection.findFirst({
            where: { accountId: ctx.accountId, slug: item.slug, deletedAt: null },
            select: { id: true },
          })
        )?.id.toString() ??
        null;
      if (childId === null) ctx.note(`collection ${c.slug}: its collection "${item.slug}" is not imported: left out`);
      else items.push({ childSlug: item.slug, childId, associatedMetadata: item.associatedMetadata });
    }
  }
  if (leftOut > 0) {
    ctx.note(`collection ${c.slug}: ${leftOut} of its stories were not imported (refused, or not listed): left out`);
  }
  for (const note of c.notes) ctx.note(`collection ${c.slug}: ${note}`);

  const what = c.automated
    ? `automated (${Object.keys(rules).join(", ") || "every story"})`
    : `${items.length} item${items.length === 1 ? "" : "s"}`;
  return {
    action: "create",
    reason: `collection "${c.slug}" "${c.name}", ${what}`,
    remember: [key],
    apply: async (tx: TransactionClient) => {
      // Dry-run ids never reach here: a real run looked everything up for real.
      const real = items.filter((i) => i.storyId !== DRY_RUN_ID && i.childId !== DRY_RUN_ID);
      const seen = new Set<string>();
      const unique = real.filter((i) => {
        const id = i.storyId ? `s${i.storyId}` : `c${i.childId}`;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
      const created = await tx.collection.create({
        data: {
          accountId: ctx.accountId,
          slug,
          name: input.data.name,
          summary: input.data.summary,
          template: input.data.template,
          automated: c.automated,
          rules: rules as Prisma.InputJsonObject,
          metadata: metadata as Prisma.InputJsonObject,
          createdAt: ctx.now,
          items: {
            create: unique.map((i, position) => ({
              position,
              storyId: i.storyId ?? null,
              childCollectionId: i.childId ? Number(i.childId) : null,
              associatedMetadata: i.associatedMetadata ?? {},
            })),
          },
        },
        select: { id: true },
      });
      await ctx.record(tx, { ...key, targetId: created.id, created: true });
    },
  };
}
