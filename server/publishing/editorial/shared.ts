/**
 * What the editorial modules (stories, collections, taxonomy, images) share: locks that
 * serialise nesting changes, reading the account's rows of a kind (one, or a page of a list),
 * slug rules, and who changed something, for event payloads.
 */
import "server-only";

import type { Actor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { sqlIdentifier } from "../../db/sql";
import { AppError } from "../../errors";
import { Prisma } from "../../generated/prisma/client";
import { slugify } from "../../text/slug";

/** Advisory lock namespaces (the first key of pg_advisory_xact_lock(int, int); the account id is the second). */
const NESTING_LOCKS = { collections: 0x4d430001, sections: 0x4d430002 } as const;
/** The namespace of the lock on one collection's items (the collection id is the second key). */
const COLLECTION_ITEMS_LOCK = 0x4d430003;

/**
 * Serialise the account's changes to one kind of nesting (collections in collections, sections
 * under sections) until the transaction ends. The cycle checks read the whole nesting: without
 * this, two concurrent moves that are each fine alone (A into B, B into A) both pass and close a loop.
 */
export async function lockNesting(tx: Db, accountId: number, kind: keyof typeof NESTING_LOCKS): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${NESTING_LOCKS[kind]}::int, ${accountId}::int)) AS locked`;
}

/**
 * Serialise the changes to one collection's items until the transaction ends: two concurrent saves
 * must run one after the other, or the second's delete misses the first's new rows and the lists
 * merge. (An advisory lock, not the collection's row: deleting a child collection locks item rows
 * before its parents' rows, and so must the item writes.)
 */
export async function lockCollectionItems(tx: Db, collectionId: number): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(${COLLECTION_ITEMS_LOCK}::int, ${collectionId}::int)) AS locked`;
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
type LockableTable = keyof typeof LOCKABLE;

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
  const ids = [...new Set(args.ids)];
  const rows = await tx.$queryRaw<{ id: string | number }[]>`
    SELECT id FROM ${sqlIdentifier(table)}
     WHERE account_id = ${args.accountId} AND id = ANY(${id === "uuid" ? Prisma.sql`${ids}::uuid[]` : Prisma.sql`${ids}::int[]`})
       ${soft ? Prisma.sql`AND deleted_at IS NULL` : Prisma.empty}
     ORDER BY id FOR ${args.mode === "update" ? Prisma.sql`UPDATE` : Prisma.sql`SHARE`}`;
  return new Set(rows.map((row) => row.id as T extends "stories" ? string : number));
}

/** NOT_FOUND for "<what> not found.", naming `field` when the id came from one. */
export function notFound(what: string, field?: string): AppError {
  return new AppError(
    "NOT_FOUND",
    `${what} not found.`,
    field ? { details: [{ field, issue: "does not exist" }] } : {},
  );
}

/** A row of the actor's account, by id; a soft-deleted one (`deletedAt`) is out of scope. */
type OwnedWhere = { id: number; accountId: number; deletedAt?: null };

/** How a service reads one kind of the account's rows (section, author, tag, entity, collection). */
export type OwnedRows<Row> = {
  /** What NOT_FOUND names: "<what> not found." */
  what: string;
  /** Its table, for lockRows. */
  table: Exclude<LockableTable, "stories">;
  /** Whether a delete is soft (`deletedAt`): such rows are out of every scope. */
  soft: boolean;
  findFirst: (db: Db, where: OwnedWhere) => Promise<Row | null>;
};

/** The same kind, listed a page at a time with the count of the whole list. */
export type ListedRows<Row, Where, OrderBy> = {
  soft: boolean;
  findMany: (db: Db, args: { where: Where; orderBy: OrderBy; take: number; skip: number }) => Promise<Row[]>;
  count: (db: Db, where: Where) => Promise<number>;
};

const accountScope = (actor: Actor, soft: boolean) => ({
  accountId: actor.accountId,
  ...(soft ? { deletedAt: null } : {}),
});

/**
 * The actor's row of this kind with this id, or NOT_FOUND (naming `field` when given). `lock`: the
 * row is locked FOR UPDATE first (a delete: of two deletes the second waits, then finds it gone).
 */
export async function getOwnedOrThrow<Row>(
  db: Db,
  rows: OwnedRows<Row>,
  args: { actor: Actor; id: number; field?: string; lock?: boolean },
): Promise<Row> {
  const { actor, id } = args;
  if (args.lock) await lockRows(db, rows.table, { accountId: actor.accountId, ids: [id], mode: "update" });
  const row = await rows.findFirst(db, { id, ...accountScope(actor, rows.soft) });
  if (!row) throw notFound(rows.what, args.field);
  return row;
}

/** One page of the actor's rows of this kind matching `where`, and how many match in all. */
export async function listOwnedPage<Row, Where extends object, OrderBy>(
  db: Db,
  rows: ListedRows<Row, Where, OrderBy>,
  args: { actor: Actor; where: Where; orderBy: OrderBy; limit: number; offset: number },
): Promise<{ rows: Row[]; total: number }> {
  const where = { ...accountScope(args.actor, rows.soft), ...args.where };
  const [page, total] = await Promise.all([
    rows.findMany(db, { where, orderBy: args.orderBy, take: args.limit, skip: args.offset }),
    rows.count(db, where),
  ]);
  return { rows: page, total };
}

/** 409 with the field named, so forms can show it next to the slug. */
function slugTaken(what: string, slug: string): AppError {
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

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A stored JSON value as an object: `{}` for anything that is not one. */
export function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
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
