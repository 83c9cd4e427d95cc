/**
 * The authors, sections and tags an imported story names, found by slug in the account before
 * one is created, quietly (no webhook event: a section's automated collection is created with it,
 * as the dashboard does, without announcing it).
 *
 * An author is found by e-mail first, then by their id in the old system, then by slug
 * (termKeys, findAuthor): one person is one author across files and sources.
 *
 * Each one touched is recorded (import_records, kind "author", "section" or "tag", by slug; an
 * author also by e-mail and old id), so the next story naming it, and the next run, find it without
 * asking again; a dry run remembers what it would have created, so it is counted once.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { graphemePrefix } from "../../text/graphemes";
import { normaliseEmail } from "../comments/records";
import type { ImportContext, Mapping, PlanEffect } from "../types";
import type { ContentPerson, ContentTerm } from "./records";

export type TermKind = "author" | "section" | "tag";

/** What a story's plan needs of one author, section or tag. */
export type PlannedTerm = {
  effects: PlanEffect[];
  remember: Mapping[];
  /** Its id, in the batch's transaction: found, or created and recorded. */
  resolve: (tx: TransactionClient) => Promise<number>;
};

/** The section's own automated collection's slug (as taxonomy/sections.ts names it). */
const sectionCollectionSlug = (slug: string) => `section-${slug}`;

async function findBySlug(db: Db, kind: TermKind, accountId: number, slug: string): Promise<number | null> {
  const where = { accountId_slug: { accountId, slug } };
  const row =
    kind === "author"
      ? await db.author.findUnique({ where, select: { id: true } })
      : kind === "section"
        ? await db.section.findUnique({ where, select: { id: true, deletedAt: true } })
        : await db.tag.findUnique({ where, select: { id: true } });
  return row?.id ?? null;
}

async function create(
  tx: TransactionClient,
  kind: TermKind,
  ctx: ImportContext,
  term: ContentTerm | ContentPerson,
): Promise<number> {
  const { accountId, now } = ctx;
  if (kind === "author") {
    const p = term as ContentPerson;
    const author = await tx.author.create({
      data: {
        accountId,
        name: graphemePrefix(p.name, 200),
        slug: p.slug,
        email: p.email,
        bio: p.bio ?? null,
        createdAt: now,
      },
      select: { id: true },
    });
    return author.id;
  }
  if (kind === "tag") {
    const tag = await tx.tag.create({
      data: { accountId, name: graphemePrefix(term.name, 200), slug: term.slug, createdAt: now },
      select: { id: true },
    });
    return tag.id;
  }
  const last = await tx.section.aggregate({ where: { accountId, parentId: null }, _max: { position: true } });
  const section = await tx.section.create({
    data: {
      accountId,
      name: graphemePrefix(term.name, 200),
      displayName: graphemePrefix(term.name, 200),
      slug: term.slug,
      position: (last._max.position ?? -1) + 1,
      createdAt: now,
    },
    select: { id: true, displayName: true },
  });
  const collection = await tx.collection.create({
    data: {
      accountId,
      slug: sectionCollectionSlug(term.slug),
      name: section.displayName,
      automated: true,
      rules: { "section-ids": [section.id] },
    },
    select: { id: true },
  });
  await tx.section.update({ where: { id: section.id }, data: { collectionId: collection.id } });
  return section.id;
}

/**
 * The import records naming a term: a section's or tag's slug; an author's e-mail ("email:…",
 * lower-cased), then their id in the old system ("id:…": a WordPress login, a Ghost user id), then
 * their slug, so one person is one author whichever name a file gives them.
 */
function termKeys(kind: TermKind, term: ContentTerm | ContentPerson): Mapping[] {
  if (kind !== "author") return [{ kind, sourceId: term.slug }];
  const person = term as ContentPerson;
  const email = normaliseEmail(person.email);
  return [
    ...(email ? [{ kind, sourceId: `email:${email}` }] : []),
    ...(person.sourceId ? [{ kind, sourceId: `id:${person.sourceId}` }] : []),
    { kind, sourceId: term.slug },
  ];
}

/**
 * The account's author who is `person`: the first with their e-mail (compared as Masthead keeps
 * e-mails: trimmed, lower-cased), else the one with their slug. Noted when the e-mail finds an
 * author of another slug (a WordPress "admin" and a Ghost "jane" with one address: one author).
 */
async function findAuthor(db: Db, ctx: ImportContext, person: ContentPerson): Promise<number | null> {
  const email = normaliseEmail(person.email);
  const byEmail = email
    ? await db.author.findFirst({
        where: { accountId: ctx.accountId, email: { equals: email, mode: "insensitive" } },
        orderBy: { id: "asc" },
        select: { id: true, slug: true },
      })
    : null;
  if (byEmail && byEmail.slug !== person.slug) {
    ctx.note(
      `author ${person.slug} "${person.name}" is author ${byEmail.slug} (#${byEmail.id}), by the e-mail ${email}`,
    );
  }
  return byEmail?.id ?? (await findBySlug(db, "author", ctx.accountId, person.slug));
}

/** Plan one author, section or tag of a story (see the file's comment). */
export async function planTerm(
  db: Db,
  ctx: ImportContext,
  kind: TermKind,
  term: ContentTerm | ContentPerson,
): Promise<PlannedTerm> {
  const keys = termKeys(kind, term);
  let known: string | null = null;
  for (const key of keys) known ??= await ctx.lookup(db, key);
  if (known !== null) {
    const id = known;
    return {
      effects: [],
      remember: keys,
      resolve: async (tx) => {
        for (const key of keys) await recordIfNew(tx, ctx, key, Number(id));
        return Number(id);
      },
    };
  }
  const existing =
    kind === "author"
      ? await findAuthor(db, ctx, term as ContentPerson)
      : await findBySlug(db, kind, ctx.accountId, term.slug);
  if (existing !== null) {
    return {
      effects: [],
      remember: keys,
      resolve: async (tx) => {
        for (const key of keys) await ctx.record(tx, { ...key, targetId: existing, created: false });
        return existing;
      },
    };
  }
  return {
    effects: [{ kind, action: "create", label: `${kind} ${term.slug} "${term.name}"` }],
    remember: keys,
    resolve: async (tx) => {
      const id = await create(tx, kind, ctx, term);
      for (const key of keys) await ctx.record(tx, { ...key, targetId: id, created: true });
      return id;
    },
  };
}

/** Record `key` → `id` (matched, not created) unless this run or an earlier one did. */
async function recordIfNew(tx: TransactionClient, ctx: ImportContext, key: Mapping, id: number) {
  if ((await ctx.lookup(tx, key)) === null) await ctx.record(tx, { ...key, targetId: id, created: false });
}
