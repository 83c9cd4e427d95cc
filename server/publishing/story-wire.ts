/**
 * Published stories in wire form for the public reads, from the form kept beside each story
 * (`story_wires`, decision 0023): a page of stories is one statement that reads the kept JSON
 * texts with the vote totals, instead of the story rows with their sections, authors, tags and
 * entities.
 *
 * Invariants:
 * - A kept form is read only while its `form_seq` is the story's `current_seq` (both in
 *   story_wires) and it was built for the publisher's site URL in this version of the wire shape,
 *   written ASCII (`formBuiltFor`, WIRE_FORM_VERSION). The database raises `current_seq` in the
 *   same transaction as every change the form shows (the story_wire_forms migration's triggers),
 *   whoever writes it, so a form built from an older state is never read again.
 * - A form is built the one way every story is (storyToWire) from the story and its relations read
 *   in one statement with its `current_seq`, so it holds exactly the state of that version; it is
 *   kept only while that is still the story's version.
 * - Votes change apart from the story (story_vote_totals): the kept form has none, the read adds the
 *   net votes as the last key. A whole story is sent as its kept text (../json-text.ts), not
 *   serialised again; a story projected to `fields` is serialised as usual.
 * - A story whose form is missing or out of date is built on the read, and kept for the next.
 *   Failing to keep it never fails the read.
 * - The kept form is the whole story. A view with `freePart` (a caller without access) gets each
 *   closed story cut to its free part with the `paywall` marker (./paid-part.ts), parsed for it.
 */
import "server-only";

import type { Db } from "../db/client";
import { Prisma } from "../generated/prisma/client";
import { asciiJson, lazyJsonObject } from "../json-text";
import { log } from "../log";
import { freePartOfWire, isClosed, PAYWALL_MARKER_KEY } from "./paid-part";
import {
  projectFields,
  STORY_INCLUDE,
  storyToWire,
  WIRE_FORM_VERSION,
  type StoryViewContext,
  type WireStory,
} from "./story-view";

/**
 * What a form must have been built for to be read for a publisher: this wire shape, written ASCII
 * (../json-text.ts asciiJson), for this site URL.
 */
export const formBuiltFor = (siteUrl: string): string => `v${WIRE_FORM_VERSION} ascii ${siteUrl}`;

/** A page of stories to read: the same arguments as `findMany`. */
export type StoryPageArgs = {
  where: Prisma.StoryWhereInput;
  orderBy?: Prisma.StoryOrderByWithRelationInput[];
  take?: number;
  skip?: number;
  fields?: readonly string[];
};

/**
 * A published story with its kept form (null columns: none kept) and its vote totals: what
 * KEPT_COLUMNS selects from a statement that joins `stories s` and KEPT_JOINS.
 */
export type KeptRow = {
  id: string;
  current_seq: number | null;
  form_seq: number | null;
  built_for: string | null;
  body: string | null;
  up: number | null;
  down: number | null;
  /** The story's `access`: whether the read must cut it to its free part (../paid-part.ts). */
  story_access: string | null;
};

export const KEPT_COLUMNS = Prisma.sql`s.id::text AS id, s.access AS story_access, w.current_seq, w.form_seq, w.built_for, w.body, v.up, v.down`;
export const KEPT_JOINS = Prisma.sql`LEFT JOIN story_wires w ON w.story_id = s.id LEFT JOIN story_vote_totals v ON v.story_id = s.id`;

/**
 * One page of stories in wire shape, in the query's order, each projected to `fields`: the page's
 * ids by `findMany`, then their forms.
 */
export async function readWireStories(db: Db, view: StoryViewContext, args: StoryPageArgs): Promise<WireStory[]> {
  const page = await db.story.findMany({
    where: args.where,
    orderBy: args.orderBy,
    take: args.take,
    skip: args.skip,
    select: { id: true },
  });
  return readWireStoriesByIds(
    db,
    view,
    page.map((p) => p.id),
    args.fields,
  );
}

/**
 * A page of stories chosen in SQL, read with their kept forms in the same statement: `ranked`
 * selects from `stories s` each story's `id` and its place `n` (from 1, in the page's order) for
 * at least the first offset + limit of them (its conditions hold only the publisher's published
 * stories); the page is those placed after `offset`, `limit` of them.
 */
export async function readWirePage(
  db: Db,
  view: StoryViewContext,
  ranked: Prisma.Sql,
  page: { offset: number; limit: number; fields?: readonly string[] },
): Promise<WireStory[]> {
  const rows = await db.$queryRaw<KeptRow[]>`
    WITH k AS (${ranked})
    SELECT ${KEPT_COLUMNS} FROM k JOIN stories s ON s.id = k.id ${KEPT_JOINS}
     WHERE k.n > ${page.offset} AND k.n <= ${page.offset + page.limit}
     ORDER BY k.n`;
  return fromKept(db, view, rows, page.fields);
}

/**
 * How many stories a statement that pages through them asks for, to show `take`: `take` rounded
 * up to a power of two, written into the statement's text (`integerSql`). Knowing its limit,
 * PostgreSQL keeps one generic plan for the prepared statement; sent as a parameter, it cannot cost
 * a generic plan of the index walk and plans every call, which cost more than running it (a list of
 * 20: 0.26-0.40 ms planned, 0.21-0.24 ms run). Rounded, so that few texts are prepared.
 */
export const pageLimitSql = (take: number): Prisma.Sql => integerSql(2 ** Math.ceil(Math.log2(Math.max(1, take))));

/** A whole number written into a statement's text (a limit PostgreSQL should plan for). */
export function integerSql(n: number): Prisma.Sql {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${n}`);
  return Prisma.raw(String(n));
}

/** The publisher's published stories by id, in the order of `ids` (others left out). */
export async function readWireStoriesByIds(
  db: Db,
  view: StoryViewContext,
  ids: readonly string[],
  fields?: readonly string[],
): Promise<WireStory[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<KeptRow[]>`
    SELECT ${KEPT_COLUMNS}
      FROM unnest(${[...ids]}::uuid[]) WITH ORDINALITY AS k(id, n)
      JOIN stories s ON s.id = k.id AND s.account_id = ${view.publisherId} AND s.status = 'published'
      ${KEPT_JOINS}
     ORDER BY k.n`;
  return fromKept(db, view, rows, fields);
}

/** The publisher's published story with this slug or external id, if any. */
export async function readWireStoryBy(
  db: Db,
  view: StoryViewContext,
  by: { slug: string } | { externalId: string },
  fields?: readonly string[],
): Promise<WireStory | undefined> {
  const match = "slug" in by ? Prisma.sql`s.slug = ${by.slug}` : Prisma.sql`s.external_id = ${by.externalId}`;
  const rows = await db.$queryRaw<KeptRow[]>`
    SELECT ${KEPT_COLUMNS} FROM stories s ${KEPT_JOINS}
     WHERE s.account_id = ${view.publisherId} AND s.status = 'published' AND ${match}
     LIMIT 1`;
  return (await fromKept(db, view, rows, fields))[0];
}

/** The wire stories of these rows: kept forms where current, the others built (and kept). */
export async function fromKept(
  db: Db,
  view: StoryViewContext,
  rows: readonly KeptRow[],
  fields: readonly string[] | undefined,
): Promise<WireStory[]> {
  const builtFor = formBuiltFor(view.siteUrl);
  const current = (row: KeptRow) =>
    row.body !== null && row.form_seq === (row.current_seq ?? 0) && row.built_for === builtFor;
  const missing = rows.filter((row) => !current(row)).map((row) => row.id);
  const built = missing.length > 0 ? await buildWireForms(db, view, missing) : new Map<string, string>();
  return rows.flatMap((row): WireStory[] => {
    const body = current(row) ? row.body! : built.get(row.id);
    // (A story deleted or unpublished between the two statements is left out.)
    if (body === undefined) return [];
    const votes = (row.up ?? 0) - (row.down ?? 0);
    const text = `${body.slice(0, -1)},"votes":${votes}}`;
    // A closed story read by a caller without access: its free part and the marker, whatever fields.
    if (view.freePart && isClosed(row.story_access)) {
      const cut = freePartOfWire(JSON.parse(text) as WireStory, view.freePart.defaultElements);
      if (!fields || fields.length === 0) return [cut];
      return [{ ...projectFields(cut, fields), [PAYWALL_MARKER_KEY]: cut[PAYWALL_MARKER_KEY] }];
    }
    if (fields && fields.length > 0) return [projectFields(JSON.parse(text) as WireStory, fields)];
    // Sent as the kept text itself, parsed only if something looks inside it.
    return [lazyJsonObject<WireStory>(text, { id: row.id })];
  });
}

/**
 * Builds the wire forms of these published stories and keeps them: their JSON text by id, ASCII,
 * without `votes` (storyToWire writes it last; the read adds it).
 */
async function buildWireForms(db: Db, view: StoryViewContext, ids: string[]): Promise<Map<string, string>> {
  const stories = await db.story.findMany({
    where: { id: { in: ids }, accountId: view.publisherId, status: "PUBLISHED" },
    include: { ...STORY_INCLUDE, wire: { select: { currentSeq: true } } },
    omit: { plainText: true },
  });
  const forms = stories.map((story) => {
    const { votes: _, ...wire } = storyToWire(story, { publisherId: view.publisherId, siteUrl: view.siteUrl });
    return { id: story.id, seq: story.wire?.currentSeq ?? 0, body: asciiJson(JSON.stringify(wire)) };
  });
  await keepWireForms(db, formBuiltFor(view.siteUrl), forms);
  return new Map(forms.map((form) => [form.id, form.body]));
}

/**
 * Keeps the forms (JSON text, each built at version `seq` of its story) whose story is still at
 * that version; a form from an older state is left out.
 */
export async function keepWireForms(
  db: Db,
  builtFor: string,
  forms: readonly { id: string; seq: number; body: string }[],
): Promise<void> {
  if (forms.length === 0) return;
  try {
    await db.$executeRaw`
      INSERT INTO story_wires (story_id, current_seq, form_seq, built_for, body)
      SELECT k.id, k.seq, k.seq, ${builtFor}, k.body
        FROM unnest(${forms.map((f) => f.id)}::uuid[], ${forms.map((f) => f.seq)}::int[], ${forms.map((f) => f.body)}::text[]) AS k(id, seq, body)
        JOIN stories s ON s.id = k.id
       ORDER BY k.id
      ON CONFLICT (story_id) DO UPDATE SET form_seq = EXCLUDED.form_seq, built_for = EXCLUDED.built_for, body = EXCLUDED.body
        WHERE story_wires.current_seq = EXCLUDED.form_seq`;
  } catch (error) {
    // The next read builds them again.
    log.warn("story wire forms not kept", { error: error instanceof Error ? error.message : String(error) });
  }
}
