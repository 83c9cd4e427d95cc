/**
 * Comments for the engagement benchmarks: `npm run db:seed -- --engagement` (npm run bench does it).
 *
 * Made inside the database by a handful of INSERT … SELECT generate_series statements (not one
 * HTTP call per comment), on the account's publication host (its domain, else APP_URL's host):
 *
 * - READERS readers (members with a publisher-JWT identity `bench-reader-NNNNNN`) who wrote the
 *   seeded comments and gave the reactions, and WRITERS readers (`bench-writer-NNNN`) for the
 *   create scenario, who have no seeded comment;
 * - the big page (`/bench/engagement/big`): BIG_PAGE_TOP_LEVEL top-level comments over five days,
 *   BIG_PAGE_REPLIES replies (a few long threads, most with one or two), 0 to 8 reactions each,
 *   and, as on a real page, some held (1 in 50), spam (1 in 97) and hidden (1 in 120) comments;
 * - COUNT_PAGES other pages (`/bench/engagement/page-NNNN`) with 0 to 39 top-level comments each,
 *   a reply on about a quarter of them and 0 to 3 reactions each: the counts call asks for 100 of
 *   them, and they make the account (the comment realm) about 25,000 comments.
 *
 * A second run creates nothing again (the big page's comments are the marker); every run deletes
 * what the writers posted in earlier benchmarks, so each run measures the same data. The tables
 * are vacuumed and analyzed afterwards (the planner would otherwise take them for empty, and the
 * counts' index-only scans would visit every row). Same SQL on PGlite.
 */
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";

const ENGAGEMENT_BENCH = {
  readers: 3_000,
  writers: 1_000,
  bigPageTopLevel: 1_400,
  bigPageReplies: 600,
  countPages: 1_000,
  readerPrefix: "bench-reader-",
  writerPrefix: "bench-writer-",
  pathPrefix: "/bench/engagement/",
} as const;

export type LargeEngagementResult = {
  accountId: number;
  host: string;
  /** Normalised page URLs. */
  bigPage: string;
  countPages: string[];
  /** JWT `id` claims of the writers (publisher provider). */
  writerIds: string[];
  /** Whether the comments were generated in this run (false: they were there). */
  created: boolean;
  /** Comments the writers had posted in earlier runs, deleted. */
  removed: number;
  /** Comments of the big page (all states). */
  bigPageComments: number;
};

const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
const array = (items: readonly string[]) => `(ARRAY[${items.map(lit).join(",")}]::text[])`;

const FIRST = ["Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas", "Kemi", "Luis"];
const LAST = ["A.", "B.", "C.", "D.", "E.", "F.", "G.", "H.", "K.", "M.", "P.", "R.", "S.", "T."];
const LINES = [
  "Thanks for the clear explanation of what changes and when.",
  "I am not convinced the numbers add up, but it is a fair summary.",
  "We saw the same thing in our town last year, and it worked out well.",
  "Does anyone know whether the consultation is still open?",
  "Good reporting. I would like a follow-up on the costs.",
  "This has been debated for years; glad to see a decision at last.",
  "The second paragraph answers the question most people were asking.",
  "I disagree with the conclusion, though the facts are well presented.",
  "My family has lived here for decades and nobody asked us.",
  "Interesting, especially the part about the timetable.",
  "Could you link the original report in the article?",
  "It would help to compare this with what other cities did.",
];
export const REACTION_IDS = ["like", "love", "haha", "wow", "sad", "angry"] as const;

/** The page URLs of the engagement benchmark on `host`. */
function engagementBenchUrls(
  host: string,
  countPages: number = ENGAGEMENT_BENCH.countPages,
): { bigPage: string; countPages: string[] } {
  const base = `https://${host}${ENGAGEMENT_BENCH.pathPrefix}`;
  return {
    bigPage: `${base}big`,
    countPages: Array.from({ length: countPages }, (_, i) => `${base}page-${String(i + 1).padStart(4, "0")}`),
  };
}

/** Make sure the account has the benchmark's readers, pages, comments and reactions (see above). */
export async function seedLargeEngagement(
  db: Db,
  args: {
    accountId: number;
    appUrl: string;
    now?: Date;
    /** Smaller sizes (tests); the benchmark uses ENGAGEMENT_BENCH's. */
    sizes?: Partial<Record<"readers" | "writers" | "bigPageTopLevel" | "bigPageReplies" | "countPages", number>>;
  },
): Promise<LargeEngagementResult> {
  const { accountId } = args;
  const now = args.now ?? new Date();
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { domain: true } });
  const host = (account.domain || new URL(args.appUrl).hostname).toLowerCase();
  const B = { ...ENGAGEMENT_BENCH, ...args.sizes };
  const { bigPage, countPages } = engagementBenchUrls(host, B.countPages);
  const writerIds = Array.from({ length: B.writers }, (_, i) => `${B.writerPrefix}${String(i + 1).padStart(4, "0")}`);
  const nowSql = `TIMESTAMPTZ ${lit(now.toISOString())}`;
  const body = (text: string) =>
    `jsonb_build_object('ops', jsonb_build_array(jsonb_build_object('insert', ${text} || E'\\n')))`;
  const digest = (text: string) => `encode(sha256(convert_to(${text}, 'UTF8')), 'hex')`;
  const lines = array(LINES);

  // What earlier benchmarks posted goes, so every run starts from the same comments.
  const removed = await db.$executeRawUnsafe(`
    DELETE FROM comments WHERE account_id = ${accountId} AND author_id IN (
      SELECT member_id FROM member_identities
      WHERE account_id = ${accountId} AND provider = 'publisher' AND external_id LIKE ${lit(`${B.writerPrefix}%`)})`);

  const existing = await db.comment.count({ where: { accountId, page: { url: bigPage } } });
  let created = false;
  if (existing === 0) {
    created = true;
    await withTransaction(
      db,
      async (tx) => {
        // Readers and writers: a member and its publisher identity each.
        // A writer's name is the one its benchmark JWT claims ("Writer N"): a returning reader.
        const readerName = `${array(FIRST)}[1 + n % ${FIRST.length}] || ' ' || ${array(LAST)}[1 + (n / ${FIRST.length}) % ${LAST.length}]`;
        for (const [prefix, count, width, name] of [
          [B.readerPrefix, B.readers, 6, readerName],
          [B.writerPrefix, B.writers, 4, `'Writer ' || n`],
        ] as const) {
          await tx.$executeRawUnsafe(`
            INSERT INTO members (account_id, name, email, password_hash, source, created_at, updated_at)
            SELECT ${accountId}, ${name},
                   ${lit(prefix)} || lpad(n::text, ${width}, '0') || '@identities.invalid', '!no-password', 'publisher',
                   ${nowSql} - INTERVAL '90 days', ${nowSql}
            FROM generate_series(1, ${count}) AS n
            ON CONFLICT (account_id, email) DO NOTHING`);
          await tx.$executeRawUnsafe(`
            INSERT INTO member_identities (account_id, provider, external_id, member_id, created_at, updated_at)
            SELECT ${accountId}, 'publisher', split_part(m.email, '@', 1), m.id, m.created_at, ${nowSql}
            FROM members m
            WHERE m.account_id = ${accountId} AND m.email LIKE ${lit(`${prefix}%@identities.invalid`)}
            ON CONFLICT (account_id, provider, external_id) DO NOTHING`);
        }
        await tx.$executeRawUnsafe(`
          INSERT INTO pages (account_id, url, headline, created_at, updated_at)
          SELECT ${accountId}, u.url, 'Benchmark page ' || u.n, ${nowSql} - INTERVAL '30 days', ${nowSql}
          FROM unnest(${array([bigPage, ...countPages])}) WITH ORDINALITY AS u(url, n)
          ON CONFLICT (account_id, url) DO NOTHING`);

        const readers = `(SELECT array_agg(id ORDER BY id) FROM members WHERE account_id = ${accountId} AND email LIKE ${lit(`${B.readerPrefix}%@identities.invalid`)})`;
        const pageIds = `(SELECT url, id, row_number() OVER (ORDER BY url) AS k FROM pages WHERE account_id = ${accountId} AND url LIKE ${lit(`https://${host}${B.pathPrefix}%`)})`;
        const text = (n: string) => `${lines}[1 + (${n} % ${LINES.length})] || ' (' || ${n} || ')'`;
        // Top-level comments: the big page's, one every 5 minutes over five days, and 0–39 on each other page.
        await tx.$executeRawUnsafe(`
          WITH r AS (SELECT ${readers} AS ids), p AS ${pageIds},
          g AS (
            SELECT p.id AS page_id, p.url = ${lit(bigPage)} AS big, n,
                   ${text("n")} AS t
            FROM p CROSS JOIN LATERAL generate_series(1, CASE WHEN p.url = ${lit(bigPage)} THEN ${B.bigPageTopLevel} ELSE (p.k * 37) % 40 END) AS n
          )
          INSERT INTO comments (account_id, page_id, author_id, body, body_digest, is_published, is_spam, toxicity,
                                hidden_at, hidden_by_id, created_at)
          SELECT ${accountId}, g.page_id, r.ids[1 + ((g.page_id * 131 + g.n * 17) % array_length(r.ids, 1))],
                 ${body("g.t")}, ${digest("g.t")},
                 (g.n % 50 <> 0 AND g.n % 97 <> 0), g.n % 97 = 0, CASE WHEN g.n % 97 = 0 THEN 12 ELSE 0 END,
                 CASE WHEN g.n % 120 = 0 THEN ${nowSql} - INTERVAL '1 hour' END,
                 CASE WHEN g.n % 120 = 0 THEN r.ids[1 + ((g.page_id * 131 + g.n * 17) % array_length(r.ids, 1))] END,
                 ${nowSql} - INTERVAL '5 days' + g.n * INTERVAL '5 minutes'
          FROM g, r`);
        // Replies on the big page: parent k*k mod the number of listed parents gives a few long threads.
        await tx.$executeRawUnsafe(`
          WITH r AS (SELECT ${readers} AS ids),
          parents AS (
            SELECT array_agg(c.id ORDER BY c.id) AS ids, array_agg(c.created_at ORDER BY c.id) AS at
            FROM comments c JOIN pages p ON p.id = c.page_id
            WHERE p.account_id = ${accountId} AND p.url = ${lit(bigPage)} AND c.parent_comment_id IS NULL
              AND c.is_published AND NOT c.is_spam AND c.id % 3 = 0
          ),
          g AS (SELECT k, 1 + ((k * k) % array_length(parents.ids, 1)) AS i, ${text("k")} AS t FROM parents, generate_series(1, ${B.bigPageReplies}) AS k)
          INSERT INTO comments (account_id, page_id, parent_comment_id, author_id, body, body_digest, is_published, created_at)
          SELECT ${accountId}, c.page_id, c.id, r.ids[1 + ((g.k * 59) % array_length(r.ids, 1))], ${body("g.t")}, ${digest("g.t")},
                 g.k % 60 <> 0, c.created_at + g.k * INTERVAL '7 seconds'
          FROM g CROSS JOIN parents CROSS JOIN r JOIN comments c ON c.id = parents.ids[g.i]`);
        // Replies on the other pages: one on about a quarter of the top-level comments.
        await tx.$executeRawUnsafe(`
          WITH r AS (SELECT ${readers} AS ids)
          INSERT INTO comments (account_id, page_id, parent_comment_id, author_id, body, body_digest, created_at)
          SELECT ${accountId}, c.page_id, c.id, r.ids[1 + ((c.id * 7) % array_length(r.ids, 1))], ${body(text("c.id"))}, ${digest(text("c.id"))},
                 c.created_at + INTERVAL '20 minutes'
          FROM comments c JOIN pages p ON p.id = c.page_id CROSS JOIN r
          WHERE p.account_id = ${accountId} AND p.url LIKE ${lit(`https://${host}${B.pathPrefix}page-%`)}
            AND c.parent_comment_id IS NULL AND c.is_published AND NOT c.is_spam AND c.id % 4 = 0`);
        // Reactions: 0–8 per comment of the big page, 0–3 elsewhere, from distinct readers.
        await tx.$executeRawUnsafe(`
          WITH r AS (SELECT ${readers} AS ids)
          INSERT INTO comment_reactions (comment_id, member_id, reaction_id, created_at)
          SELECT c.id, r.ids[1 + ((c.id * 31 + k * 101) % array_length(r.ids, 1))], ${array(REACTION_IDS)}[1 + ((c.id + k * k) % ${REACTION_IDS.length})],
                 c.created_at + k * INTERVAL '1 minute'
          FROM comments c JOIN pages p ON p.id = c.page_id CROSS JOIN r
          CROSS JOIN LATERAL generate_series(1, CASE WHEN p.url = ${lit(bigPage)} THEN (c.id * 7) % 9 ELSE c.id % 4 END) AS k
          WHERE p.account_id = ${accountId} AND p.url LIKE ${lit(`https://${host}${B.pathPrefix}%`)}
          ON CONFLICT (comment_id, member_id, reaction_id) DO NOTHING`);
      },
      { timeout: 600_000 },
    );
  }
  if (created || removed > 0) {
    // VACUUM too: it marks the pages all-visible, so counts read the partial indexes alone (an
    // index-only scan), as they do on a database autovacuum looks after.
    await db.$executeRawUnsafe("VACUUM ANALYZE members, member_identities, pages, comments, comment_reactions");
  }
  const bigPageComments = await db.comment.count({ where: { accountId, page: { url: bigPage } } });
  return { accountId, host, bigPage, countPages, writerIds, created, removed, bigPageComments };
}
