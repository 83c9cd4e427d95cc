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
