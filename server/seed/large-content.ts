/**
 * A large set of published stories for benchmarks: `npm run db:seed -- --stories 50000`.
 *
 * Stories are generated inside the database, a few thousand per statement (INSERT … SELECT over
 * generate_series, with the section, author and tag links written by the same statement through
 * data-modifying CTEs), so 50,000 take seconds on PostgreSQL rather than minutes of round trips.
 * Headlines and text are drawn from word lists, so full-text search has real words to find, and
 * plain_text is set so the generated search vector fills. The same SQL runs on PGlite.
 *
 * Generated stories have slugs "bench/story-000001" … and are counted by that prefix: a second
 * run tops up to N instead of adding N more.
 */
import type { Db } from "../db/client";

export const LARGE_SLUG_PREFIX = "bench/story-";

const SUBJECTS = [
  "Council",
  "Ministers",
  "Researchers",
  "Investors",
  "Farmers",
  "Students",
  "Doctors",
  "Engineers",
  "Voters",
  "Artists",
  "Fans",
  "Regulators",
  "Startups",
  "Unions",
  "Scientists",
  "Mayors",
];
const VERBS = [
  "back",
  "reject",
  "debate",
  "question",
  "welcome",
  "delay",
  "fund",
  "launch",
  "review",
  "challenge",
  "approve",
  "study",
];
const OBJECTS = [
  "new climate plan",
  "election reform",
  "budget proposal",
  "housing scheme",
  "energy prices",
  "football stadium",
  "music festival",
  "trade agreement",
  "health service changes",
  "artificial intelligence rules",
  "rail timetable",
  "school funding",
  "water quality report",
  "market rally",
  "film tax credit",
  "cycling lanes",
];
const SENTENCES = [
  "Officials said the decision followed months of consultation with residents and businesses.",
  "Critics argued that the costs had been underestimated and the timetable was unrealistic.",
  "The market reacted calmly, with shares in the sector little changed by the afternoon.",
  "Supporters said the change would make the system fairer and easier to understand.",
  "A spokesperson declined to comment on the details but promised a full statement next week.",
  "Polling suggests that public opinion remains divided, especially among younger voters.",
  "Experts warned that climate risks would grow unless investment increased quickly.",
  "The team's coach said the players had responded well to a difficult week.",
  "Economists expect inflation to ease gradually over the rest of the year.",
  "Local groups plan to hold public meetings before the final vote in the council.",
  "The festival organisers said ticket demand had exceeded every forecast.",
  "Engineers are testing the technology in three cities before a wider launch.",
];

/** SQL text literal for a trusted constant (the word lists above). */
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
const array = (items: readonly string[]) => `(ARRAY[${items.map(lit).join(",")}]::text[])`;
const intArray = (items: readonly number[]) => `ARRAY[${items.map((n) => Math.trunc(n)).join(",")}]::int[]`;

/**
 * The slug of generated story `n` (an SQL integer expression): "bench/story-000042", six digits
 * at least and never cut (lpad alone cuts: story 1,000,000 would take 100,000's slug).
 */
export const generatedSlugSql = (n: string) =>
  `${lit(LARGE_SLUG_PREFIX)} || lpad(${n}::text, greatest(6, length(${n}::text)), '0')`;

export type LargeContentResult = { existing: number; created: number; total: number };

/**
 * Make sure the account has at least `target` generated published stories. Needs at least one
 * section and one author (the demo content provides them); tags are optional.
 */
export async function seedLargeContent(
  db: Db,
  args: {
    accountId: number;
    target: number;
    now?: Date;
    batchSize?: number;
    onProgress?: (done: number, target: number) => void;
  },
): Promise<LargeContentResult> {
  const { accountId, target } = args;
  const now = args.now ?? new Date();
  const batchSize = args.batchSize ?? 5000;
  const existing = await db.story.count({ where: { accountId, slug: { startsWith: LARGE_SLUG_PREFIX } } });
  if (existing >= target) return { existing, created: 0, total: existing };

  const sections = (
    await db.section.findMany({ where: { accountId, deletedAt: null }, select: { id: true }, orderBy: { id: "asc" } })
  ).map((s) => s.id);
  const authors = (
    await db.author.findMany({ where: { accountId }, select: { id: true }, orderBy: { id: "asc" } })
  ).map((a) => a.id);
  const tags = (await db.tag.findMany({ where: { accountId }, select: { id: true }, orderBy: { id: "asc" } })).map(
    (t) => t.id,
  );
  if (sections.length === 0 || authors.length === 0)
    throw new Error("Generating stories needs at least one section and one author: run the demo seed first.");

  // Numbers are taken in order; gaps (stories deleted since) are filled first.
  let created = 0;
  let from = 1;
  while (existing + created < target) {
    const to = from + batchSize - 1;
    const rows = await db.$queryRawUnsafe<{ inserted: bigint | number }[]>(
      insertBatchSql({ accountId, from, to, now, sections, authors, tags, limit: target - existing - created }),
    );
    created += Number(rows[0]?.inserted ?? 0);
    from = to + 1;
    args.onProgress?.(existing + created, target);
    if (from > target * 2 + batchSize) break; // cannot happen unless rows vanish under us; never loop forever
  }
  // Fresh statistics: the planner otherwise takes the just-filled tables for empty ones (autovacuum
  // would analyze them, minutes later) and picks plans that read every row.
  // VACUUM as well as ANALYZE: rows inserted in bulk wait in the search index's pending list
  // (GIN fastupdate), which every search reads through until a vacuum merges it, about 5 ms a
  // search at 50,000 stories. Autovacuum would get there; a benchmark run right after the seed
  // would measure the pending list instead.
  if (created > 0) await db.$executeRawUnsafe("VACUUM (ANALYZE) stories, story_sections, story_authors, story_tags");
  return { existing, created, total: existing + created };
}

/**
 * One statement: insert stories numbered from..to that do not exist yet (at most `limit`), then
 * their primary section, author and (when there are tags) two tags, from the returned rows.
 */
function insertBatchSql(a: {
  accountId: number;
  from: number;
  to: number;
  now: Date;
  sections: number[];
  authors: number[];
  tags: number[];
  limit: number;
}): string {
  const subjects = array(SUBJECTS);
  const verbs = array(VERBS);
  const objects = array(OBJECTS);
  const sentences = array(SENTENCES);
  const ns = SENTENCES.length;
  // Sentence k of story n: a different mix per story, 8 sentences (about 110 words).
  const sentence = (k: number) => `${sentences}[1 + ((n * ${k * 7 + 3} + ${k}) % ${ns})]`;
  const text = Array.from({ length: 8 }, (_, k) => sentence(k)).join(" || ' ' || ");
  const paragraph1 = Array.from({ length: 4 }, (_, k) => sentence(k)).join(" || ' ' || ");
  const paragraph2 = Array.from({ length: 4 }, (_, k) => sentence(k + 4)).join(" || ' ' || ");
  const nowIso = a.now.toISOString();
  const tagLinks =
    a.tags.length > 0
      ? `, t AS (
          INSERT INTO story_tags (story_id, tag_id, position)
          SELECT s.id, (${intArray(a.tags)})[1 + ((s.n + k) % ${a.tags.length})], k
          FROM s CROSS JOIN generate_series(0, ${Math.min(2, a.tags.length) - 1}) AS k
          ON CONFLICT DO NOTHING
          RETURNING 1
        )`
      : "";
  return `
    WITH g AS (
      SELECT n,
             ${subjects}[1 + (n % ${SUBJECTS.length})] || ' ' || ${verbs}[1 + ((n / ${SUBJECTS.length}) % ${VERBS.length})] || ' ' || ${objects}[1 + ((n / 7) % ${OBJECTS.length})] AS headline,
             ${text} AS plain_text,
             '<p>' || ${paragraph1} || '</p>' AS p1,
             '<p>' || ${paragraph2} || '</p>' AS p2,
             TIMESTAMPTZ ${lit(nowIso)} - INTERVAL '21 days' - (n * INTERVAL '7 minutes') AS published_at
      FROM generate_series(${a.from}, ${a.to}) AS n
      WHERE NOT EXISTS (SELECT 1 FROM stories x WHERE x.account_id = ${a.accountId} AND x.slug = ${generatedSlugSql("n")})
      ORDER BY n
      LIMIT ${a.limit}
    ), s AS (
      INSERT INTO stories (id, account_id, headline, subheadline, slug, summary, status, story_template, story_version_id, cards, plain_text,
                           hero_image_s3_key, read_time, published_at, first_published_at, last_published_at, created_at, updated_at)
      SELECT gen_random_uuid(), ${a.accountId}, g.headline || ' (' || g.n || ')', 'Generated story ' || g.n || ' for benchmarks',
             ${generatedSlugSql("g.n")}, left(g.plain_text, 160), 'published', 'text', gen_random_uuid(),
             jsonb_build_array(jsonb_build_object(
               'id', gen_random_uuid(), 'status', 'draft', 'version', 1, 'metadata', '{}'::jsonb,
               'story-elements', jsonb_build_array(
                 jsonb_build_object('id', gen_random_uuid(), 'type', 'text', 'subtype', NULL, 'text', g.p1, 'metadata', '{}'::jsonb),
                 jsonb_build_object('id', gen_random_uuid(), 'type', 'text', 'subtype', NULL, 'text', g.p2, 'metadata', '{}'::jsonb)))),
             g.plain_text, NULL, 1, g.published_at, g.published_at, g.published_at, g.published_at, g.published_at
      FROM g
      ON CONFLICT (account_id, slug) DO NOTHING
      RETURNING id, substr(slug, ${LARGE_SLUG_PREFIX.length + 1})::int AS n
    ), sec AS (
      INSERT INTO story_sections (story_id, section_id, position)
      SELECT s.id, (${intArray(a.sections)})[1 + (s.n % ${a.sections.length})], 0 FROM s
      RETURNING 1
    ), au AS (
      INSERT INTO story_authors (story_id, author_id, position)
      SELECT s.id, (${intArray(a.authors)})[1 + (s.n % ${a.authors.length})], 0 FROM s
      RETURNING 1
    )${tagLinks}
    SELECT count(*) AS inserted FROM s`;
}
