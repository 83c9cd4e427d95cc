/**
 * What the editorial modules (stories, collections, taxonomy, images) share: locks that
 * serialise nesting changes, slug rules, and who changed something, for event payloads.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { slugify } from "./organise.schema";

/** Advisory lock namespaces (the first key of pg_advisory_xact_lock(int, int); the account id is the second). */
const NESTING_LOCKS = { collections: 0x4d430001, sections: 0x4d430002 } as const;
/** The namespace of the lock on one collection's items (the collection id is the second key). */
export const COLLECTION_ITEMS_LOCK = 0x4d430003;

/**
 * Serialise the account's changes to one kind of nesting (collections in collections, sections
 * under sections) until the transaction ends. The cycle checks read the whole nesting: without
 * this, two concurrent moves that are each fine alone (A into B, B into A) both pass and close a loop.
 */
export async function lockNesting(tx: Db, accountId: number, kind: keyof typeof NESTING_LOCKS): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${NESTING_LOCKS[kind]}::int, ${accountId}::int)) AS locked`;
}

/**
 * Rows the editorial writes lock, with the type of their id and whether they are deleted softly
 * (`deleted_at`). Table names come from this list only, never from input.
 */
const LOCKABLE = {
  stories: { id: "uuid", soft: false },
  sections: { id: "int", soft: true },
  authors: { id: "int", soft: false },
  tags: { id: "int", soft: false },
  collections: { id: "int", soft: true },
  entities: { id: "int", soft: true },
} as const;
export type LockableTable = keyof typeof LOCKABLE;

/**
 * Lock the account's rows of `table` with these ids until the transaction ends, and return the ids
 * that still exist (and are not soft-deleted). How concurrent writes meet without a 500:
 *
 * - a delete takes its row `"update"` (FOR UPDATE) before it checks anything. A second delete of
 *   the same row waits, then finds it gone (PostgreSQL re-reads a locked row: a deleted row or a
 *   `deleted_at` set meanwhile drops out) and answers NOT_FOUND;
 * - a write that makes rows refer to others (filing a story under a section, adding a story to a
 *   collection) takes them `"share"` (FOR SHARE) while checking they exist. Against a delete, one
 *   waits for the other: the delete then sees the new reference (409 "in use", or it cascades), or
 *   the write sees the row gone (its "does not exist" error) instead of a foreign-key failure.
 *
 * FOR SHARE, not FOR KEY SHARE: a soft delete only updates the row, which KEY SHARE would let through.
 */
export async function lockRows<T extends LockableTable>(
  tx: Db,
  table: T,
  args: { accountId: number; ids: readonly (T extends "stories" ? string : number)[]; mode: "update" | "share" },
): Promise<Set<T extends "stories" ? string : number>> {
  if (args.ids.length === 0) return new Set();
  const { id, soft } = LOCKABLE[table];
  const rows = await tx.$queryRawUnsafe<{ id: string | number }[]>(
    `SELECT id FROM ${table} WHERE account_id = $1 AND id = ANY($2::${id}[])${soft ? " AND deleted_at IS NULL" : ""}
     ORDER BY id FOR ${args.mode === "update" ? "UPDATE" : "SHARE"}`,
    args.accountId,
    [...new Set(args.ids)],
  );
  return new Set(rows.map((row) => row.id as T extends "stories" ? string : number));
}

/** 409 with the field named, so forms can show it next to the slug. */
export function slugTaken(what: string, slug: string): AppError {
  return new AppError("CONFLICT", `Another ${what} already uses the slug "${slug}".`, {
    details: [{ field: "slug", issue: "is already in use" }],
  });
}

type SlugWhere = { accountId: number; slug: string; NOT?: { id: number } };

/** Each kind of row with a slug unique per account, and how to find one by slug. */
const FIND_BY_SLUG = {
  section: (db: Db, where: SlugWhere) => db.section.findFirst({ where, select: { id: true } }),
  author: (db: Db, where: SlugWhere) => db.author.findFirst({ where, select: { id: true } }),
  tag: (db: Db, where: SlugWhere) => db.tag.findFirst({ where, select: { id: true } }),
  collection: (db: Db, where: SlugWhere) => db.collection.findFirst({ where, select: { id: true } }),
};

/** 409 (slugTaken) when another row of this kind in the actor's account, not `exceptId`, has the slug. */
export async function assertSlugFree(
  db: Db,
  kind: keyof typeof FIND_BY_SLUG,
  args: { actor: Actor; slug: string; exceptId?: number },
): Promise<void> {
  const { actor, slug, exceptId } = args;
  const clash = await FIND_BY_SLUG[kind](db, {
    accountId: actor.accountId,
    slug,
    ...(exceptId ? { NOT: { id: exceptId } } : {}),
  });
  if (clash) throw slugTaken(kind, slug);
}

/** A change to a row's slug (given, and not the one it has): 409 when another row of this kind has it. */
export async function assertSlugChangeFree(
  db: Db,
  kind: keyof typeof FIND_BY_SLUG,
  args: { actor: Actor; slug: string | undefined; current: { id: number; slug: string } },
): Promise<void> {
  const { actor, slug, current } = args;
  if (slug !== undefined && slug !== current.slug)
    await assertSlugFree(db, kind, { actor, slug, exceptId: current.id });
}

/** Drop the keys whose value is undefined (a partial update's untouched fields). */
export function defined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

type Contains = { contains: string; mode: "insensitive" };

/** A list's search: `q` in any of `fields`, ignoring case; no condition without a `q`. */
export function searchWhere<F extends string>(
  q: string | undefined,
  fields: readonly F[],
): { OR?: { [K in F]?: Contains }[] } {
  return q
    ? { OR: fields.map((field) => ({ [field]: { contains: q, mode: "insensitive" } }) as { [K in F]?: Contains }) }
    : {};
}

/** The slug a name gives, or a 400 naming the field when the name has no letters or digits to make one. */
export function slugFromName(name: string): string {
  const slug = slugify(name);
  if (!slug)
    throw new AppError("BAD_REQUEST", "Give a slug: the name has no letters or digits to make one from.", {
      details: [{ field: "slug", issue: "is required for this name" }],
    });
  return slug;
}

/** What a soft-deleted row's slug becomes, freeing the original: never a valid slug (double hyphen). */
export function deletedSlug(slug: string, id: number): string {
  return `${slug}--deleted-${id}`;
}

/** Who made a change, as content events carry it ("changed-by"): the staff member, or the system by name. */
export async function changedBy(
  db: Db,
  actor: Actor,
): Promise<{ id: string | null; name: string | null; email: string | null }> {
  if (actor.kind === "system") return { id: null, name: `Masthead (${actor.name})`, email: null };
  const user = await db.adminUser.findFirst({
    where: { id: actor.id, accountId: actor.accountId },
    select: { id: true, name: true, email: true },
  });
  return user ?? { id: actor.id, name: null, email: null };
}
