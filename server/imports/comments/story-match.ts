/**
 * Which imported story a comment thread belongs to (docs/migration.md, "Threads → pages"), tried
 * in this order, the first that answers wins:
 *
 * 1. **thread id**: the WordPress post id the thread names. Disqus's <id> as the Disqus WordPress
 *    plugin writes it, "<post id> <guid>" (and the guid's own `?p=`, which differs for a post
 *    imported into WordPress), a bare number, or a WordPress export's own thread (its post id);
 *    then a `?p=`/`?page_id=` link (WordPress's default permalinks). Found among the stories the
 *    WordPress content import made (import_records: source "wxr", kind "story"), the thread's own
 *    site's first, then the site the guid names; another site's only when it is the only one.
 *    A Ghost theme's Disqus identifier, "ghost-<post id>", finds the story `--from ghost` made of
 *    that post (source "ghost"), or of the post whose `comment_id` it is (thread key
 *    "ghost:<comment_id>"); a post id no WordPress story has, the Ghost post whose comment_id it
 *    is (a post Ghost imported from WordPress keeps its WordPress id there: "post:<id>").
 * 2. **dsq_thread_id**: the Disqus thread id the Disqus WordPress plugin kept on the post (post
 *    meta `dsq_thread_id`), which the content import recorded (kind "thread-key", "dsq:<id>").
 * 3. **imported URL**: the link is, in any form (threadUrlKey), the post's address in the old
 *    site, as the content import recorded it ("url:<key>").
 * 4. **redirect**: the link's path is one of the account's redirects to a story (the content
 *    import makes one per published post's old address).
 * 5. **old slug**: the link's last path segment is a slug the post had before (WordPress's
 *    `_wp_old_slug`, recorded as "slug:<old slug>").
 * 6. **canonical URL**: the link is the story's own address ("/<slug>" on the site) or the
 *    canonical URL the story keeps.
 * Steps 4 to 6 only for a link on the publication's hosts or on a site the account's stories
 * were imported from (a path alone says nothing of another site). None: the thread's page is
 * the page at its link.
 */
import "server-only";

import type { Db, TransactionClient } from "../../db/client";
import { pageUrlForms } from "../../engagement/pages";
import { isPublicationUrl } from "../../publishing/publisher";
import { siteScope, type ImportContext } from "../types";
import type { CommentThread } from "./records";
import { threadPageUrl, threadUrlKey } from "./thread-url";

const THREAD_KEY_KIND = "thread-key";
/** The content source whose story ids are WordPress post ids. */
const WORDPRESS_CONTENT_SOURCE = "wxr";
/** The content sources that record thread keys (story-plan.ts): every one. */
const CONTENT_SOURCES = ["wxr", "ghost", "content-api"];

type ThreadMatch = "thread id" | "dsq_thread_id" | "imported URL" | "redirect" | "old slug" | "canonical URL";

type MatchedStory = { how: ThreadMatch; id: string; slug: string; headline: string };

type Candidate = { ids: string[]; sites: string[] };

const POST_ID = /^\d{1,19}$/;

/** The WordPress post ids a URL names by `?p=` or `?page_id=`, and its site. */
function idsOfUrl(text: string | null | undefined): Candidate {
  if (!text) return { ids: [], sites: [] };
  try {
    const url = new URL(text);
    const ids = ["p", "page_id"].flatMap((name) => url.searchParams.getAll(name).filter((v) => POST_ID.test(v)));
    return { ids, sites: [siteScope(`${url.origin}${url.pathname}`)] };
  } catch {
    return { ids: [], sites: [] };
  }
}

/** The WordPress post ids a thread names (its identifier, else its link) and the sites they belong to. Pure. */
export function threadPostIds(thread: Pick<CommentThread, "identifier" | "url">): Candidate {
  const identifier = thread.identifier?.trim() ?? "";
  const m = /^(\d{1,19})(?:\s+(\S+))?$/.exec(identifier);
  if (m) {
    const guid = idsOfUrl(m[2]);
    return { ids: [...new Set([m[1]!, ...guid.ids])], sites: guid.sites };
  }
  return idsOfUrl(thread.url);
}

/** The story `kind`/`sourceIds` records point at: the first of `sites` that has one, else the only one. */
async function recordedStory(
  db: Db,
  ctx: ImportContext,
  where: { kind: string; sourceIds: string[]; source?: string },
  sites: readonly string[],
): Promise<string | null> {
  if (where.sourceIds.length === 0) return null;
  const rows = await db.importRecord.findMany({
    where: {
      accountId: ctx.accountId,
      kind: where.kind,
      sourceId: { in: where.sourceIds },
      source: where.source ?? { in: CONTENT_SOURCES },
    },
    select: { site: true, targetId: true, sourceId: true },
    orderBy: { id: "asc" },
    take: 50,
  });
  // The first source id that has a record wins (they are in the order of preference).
  for (const sourceId of where.sourceIds) {
    const mine = rows.filter((r) => r.sourceId === sourceId);
    const preferred = sites.flatMap((s) => mine.filter((r) => r.site === s))[0];
    const targets = new Set(mine.map((r) => r.targetId));
    const pick = preferred?.targetId ?? (targets.size === 1 ? [...targets][0] : undefined);
    if (pick !== undefined) return pick;
  }
  return null;
}

/**
 * The hosts of the sites the account's stories were imported from (import_records' sites), and
 * whether it has imported stories at all (none: no thread is matched, no query per thread), read
 * once per run.
 */
const importedSites = new WeakMap<ImportContext, Promise<{ any: boolean; hosts: Set<string> }>>();

function sitesOf(db: Db, ctx: ImportContext): Promise<{ any: boolean; hosts: Set<string> }> {
  let sites = importedSites.get(ctx);
  if (!sites) {
    sites = db.importRecord
      .findMany({
        where: { accountId: ctx.accountId, kind: "story", source: { in: CONTENT_SOURCES } },
        distinct: ["site"],
        select: { site: true },
        take: 1_000,
      })
      .then((rows) => ({
        any: rows.length > 0,
        hosts: new Set(rows.flatMap((r) => (r.site ? [r.site.split("/")[0]!] : []))),
      }));
    importedSites.set(ctx, sites);
  }
  return sites;
}

/** The link's path (decoded, no trailing "/"), when the link is on the publication or an imported site. */
async function pathOnKnownSite(db: Db, ctx: ImportContext, link: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(threadPageUrl(link, ctx.publisher));
  } catch {
    return null;
  }
  const host = url.host.toLowerCase().replace(/^www\./, "");
  if (!isPublicationUrl(ctx.publisher, url.toString()) && !(await sitesOf(db, ctx)).hosts.has(host)) return null;
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // kept encoded
  }
  path = path.replace(/\/+$/, "");
  return path || null;
}

async function storyById(db: Db, ctx: ImportContext, id: string | null, how: ThreadMatch) {
  if (id === null) return null;
  const story = await db.story.findFirst({
    where: { id, accountId: ctx.accountId },
    select: { id: true, slug: true, headline: true },
  });
  return story ? { how, ...story } : null;
}

async function storyBySlug(db: Db, ctx: ImportContext, slug: string, how: ThreadMatch) {
  if (!slug) return null;
  const story = await db.story.findUnique({
    where: { accountId_slug: { accountId: ctx.accountId, slug } },
    select: { id: true, slug: true, headline: true },
  });
  return story ? { how, ...story } : null;
}

/** Steps 4 to 6 (see the file's comment): by the link's path on a known site. */
async function matchByPath(db: Db, ctx: ImportContext, link: string): Promise<MatchedStory | null> {
  const path = await pathOnKnownSite(db, ctx, link);
  if (path === null) return null;
  const redirect = await db.customUrl.findFirst({
    where: { accountId: ctx.accountId, sourcePath: path, type: "redirect" },
    select: { destinationPath: true },
  });
  const target = redirect?.destinationPath?.replace(/^\/+/, "").replace(/\/+$/, "");
  const redirected = target ? await storyBySlug(db, ctx, target, "redirect") : null;
  if (redirected) return redirected;
  const last = path.split("/").pop() ?? "";
  const old = await recordedStory(db, ctx, { kind: THREAD_KEY_KIND, sourceIds: [`slug:${last}`] }, [ctx.site]);
  const byOldSlug = await storyById(db, ctx, old, "old slug");
  if (byOldSlug) return byOldSlug;
  if (isPublicationUrl(ctx.publisher, threadPageUrl(link, ctx.publisher))) {
    const own = await storyBySlug(db, ctx, path.replace(/^\/+/, ""), "canonical URL");
    if (own) return own;
  }
  const canonical = await db.story.findFirst({
    where: { accountId: ctx.accountId, canonicalUrl: { in: pageUrlForms(threadPageUrl(link, ctx.publisher)) } },
    select: { id: true, slug: true, headline: true },
    orderBy: { id: "asc" },
  });
  return canonical ? { how: "canonical URL", ...canonical } : null;
}

/** Step 1 (see the file's comment): by the post id the thread names. */
async function matchById(db: Db, ctx: ImportContext, thread: CommentThread, sites: string[]) {
  const ghost = /^ghost-(\S{1,100})$/.exec(thread.identifier?.trim() ?? "")?.[1];
  if (ghost) {
    const id =
      (await recordedStory(db, ctx, { kind: "story", source: "ghost", sourceIds: [ghost] }, sites)) ??
      (await recordedStory(db, ctx, { kind: THREAD_KEY_KIND, sourceIds: [`ghost:${ghost}`] }, sites));
    return storyById(db, ctx, id, "thread id");
  }
  const posts = threadPostIds(thread);
  const source = { kind: "story", source: WORDPRESS_CONTENT_SOURCE };
  const postSites = [...sites, ...posts.sites];
  const id =
    (await recordedStory(db, ctx, { ...source, sourceIds: posts.ids }, postSites)) ??
    // A Ghost post moved from WordPress, whose comment_id is its WordPress post id.
    (await recordedStory(db, ctx, { kind: THREAD_KEY_KIND, sourceIds: posts.ids.map((p) => `post:${p}`) }, postSites));
  return storyById(db, ctx, id, "thread id");
}

/** The imported story `thread` belongs to (see the file's comment), or null. */
export async function matchThreadStory(
  db: Db,
  ctx: ImportContext,
  thread: CommentThread,
  provider: string,
): Promise<MatchedStory | null> {
  if (!(await sitesOf(db, ctx)).any) return null;
  const sites = ctx.site ? [ctx.site] : [];
  const byId = await matchById(db, ctx, thread, sites);
  if (byId) return byId;
  if (provider === "disqus") {
    const keys = { kind: THREAD_KEY_KIND, sourceIds: [`dsq:${thread.sourceId}`] };
    const byDsq = await storyById(db, ctx, await recordedStory(db, ctx, keys, sites), "dsq_thread_id");
    if (byDsq) return byDsq;
  }
  if (!thread.url) return null;
  let key: string;
  try {
    key = threadUrlKey(thread.url);
  } catch {
    return null;
  }
  const byUrl = await recordedStory(db, ctx, { kind: THREAD_KEY_KIND, sourceIds: [`url:${key}`] }, sites);
  return (await storyById(db, ctx, byUrl, "imported URL")) ?? matchByPath(db, ctx, thread.url);
}

/**
 * The keys a story's comment threads may name it by (see the file's comment), besides its post
 * id: its old address ("url:"), and what the export adds (`extra`: "dsq:<id>", "slug:<old>").
 */
export function storyThreadKeys(oldUrl: string | null, extra: readonly string[] = []): string[] {
  const keys = new Set<string>();
  if (oldUrl) {
    try {
      keys.add(`url:${threadUrlKey(oldUrl, "url")}`);
    } catch {
      // no page URL: no key
    }
  }
  for (const key of extra) if (key.length <= 2_000) keys.add(key);
  return [...keys];
}

/**
 * The keys a Ghost post's `comment_id` names it by: Ghost's Disqus embed's identifier,
 * "ghost-<comment_id>" ("ghost:<comment_id>"), and, for a post Ghost imported from WordPress (a
 * numeric comment_id: the WordPress post id), the WordPress plugin's thread id ("post:<id>").
 */
export function commentIdThreadKeys(commentId: string): string[] {
  const id = commentId.trim();
  if (!id || id.length > 100 || /\s/.test(id)) return [];
  return POST_ID.test(id) ? [`ghost:${id}`, `post:${id}`] : [`ghost:${id}`];
}

/**
 * Record `keys` of story `storyId` (import_records, kind "thread-key"), in the story's transaction.
 * A key the site has already is left as it is: a second run adds none, and of two posts naming one
 * key (one old slug, one Disqus thread) the first imported keeps it.
 */
export async function recordThreadKeys(
  tx: TransactionClient,
  ctx: ImportContext,
  storyId: string,
  keys: readonly string[],
): Promise<void> {
  const rows = keys.map((sourceId) => ({ kind: THREAD_KEY_KIND, sourceId, targetId: storyId, created: false }));
  await ctx.recordMany(tx, rows, { skipDuplicates: true });
}
