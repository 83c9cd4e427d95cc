/**
 * The posts and pages of a Ghost export (Settings → Advanced → Import/Export → Export content: one
 * JSON document, `{db: [{meta, data: {posts, posts_meta, tags, posts_tags, users, posts_authors,
 * settings…}}]}`), read as ContentPosts.
 *
 * - Body: `html` when the export has it, else its Lexical or Mobiledoc rendered (ghost-render.ts).
 * - Tags (posts_tags, in sort order): public tags → Masthead tags; the first public tag (Ghost's
 *   primary tag) is also the story's section. Internal tags (`#…`, visibility "internal") are
 *   skipped.
 * - Authors (posts_authors, in sort order) → Masthead authors, found by Ghost's slug.
 * - status: published → published at published_at; draft → draft; scheduled → scheduled at
 *   published_at. An e-mail-only post (status sent, or posts_meta.email_only) was never on the
 *   web: a draft, said in the report.
 * - visibility and tiers → the story's access and access level (ghost-access.ts).
 * - The paywall split point (`<!--members-only-->`, the paywall card) of a post that is not
 *   public → the story's paywallAt (ghost-urls.ts splitAtPaywall).
 * - The old site's own address (`__GHOST_URL__`, root-relative paths) → `options.ghostUrl`, else
 *   the account's site URL; an export needing one without either is refused (ghost-urls.ts).
 * - Featured image: feature_image (its alt and caption from posts_meta) → the hero image. An image
 *   html-to-elements cannot keep (not an http(s) address) is a line of the report.
 * - Old URL: "/<slug>/", or the export's `permalinks` setting when it has one (:slug, :year,
 *   :month, :day, :id, :primary_tag, :primary_author); pages are always "/<slug>/".
 *
 * The document is read whole (JSON.parse): an export up to MAX_BYTES. Its text is not kept after
 * the first read; the second read parses it again and yields the posts one by one.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";

import { ownValue } from "@/server/own-keys";

import { parseExportDate } from "../comments/records";
import { commentIdThreadKeys } from "../comments/story-match";
import { ImportLimitError, jsonErrorWhere, jsonTooDeep, tooDeepMessage } from "../limits";
import { StrictDecoder } from "../text-decoding";
import { ImportFileError, type FileProblem, type ImportFile, type PrepareAccount } from "../types";
import { ghostAccess, ghostTiers, type GhostTiers } from "./ghost-access";
import { ghostBodyHtml } from "./ghost-render";
import {
  absoluteHtml,
  ghostBase,
  ghostUrlOf,
  needsBase,
  splitAtPaywall,
  unkeptImages,
  withGhostUrls,
} from "./ghost-urls";
import type { ContentPerson, ContentPost, ContentStatus, ContentTerm } from "./records";
import type { ContentFile } from "./source";
import { termSlug } from "./term-slug";

/** The largest export read (Node.js holds a JSON document of at most ~512 MB as one string). */
const MAX_BYTES = 400 * 1024 * 1024;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const rows = (data: Json, name: string): Json[] => {
  const list = ownValue(data, name);
  return Array.isArray(list) ? list.filter(isObj) : [];
};

async function readData(file: ImportFile): Promise<{ data: Json; digest: string }> {
  let bytes: Buffer;
  try {
    const stat = await fs.promises.stat(file.path);
    if (stat.isDirectory()) throw new ImportFileError(`Cannot read ${file.name}: it is a directory.`);
    if (stat.size > MAX_BYTES) {
      throw new ImportFileError(
        `${file.name} is ${Math.round(stat.size / 1048576)} MB: a Ghost export is read whole, up to ${MAX_BYTES / 1048576} MB.`,
      );
    }
    bytes = await fs.promises.readFile(file.path);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const code = (error as { code?: string }).code;
    throw new ImportFileError(
      `Cannot read ${file.name}: ${code === "ENOENT" ? "no such file" : (code ?? "unreadable")}.`,
    );
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  const decoder = new StrictDecoder("utf-8", file.name);
  const start = { line: 1, column: 1 };
  const text = (decoder.decode(bytes, start) + decoder.decode(null, start)).replace(/^\uFEFF/, "");
  const deep = jsonTooDeep(text);
  if (deep) throw new ImportLimitError(tooDeepMessage(file.name, `line ${deep.line}, column ${deep.column}`));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const where = jsonErrorWhere(text, error);
    throw new ImportFileError(
      `${file.name} is not a Ghost export: it is not JSON (${where ? `${where}: ` : ""}${why}; truncated?). Nothing of it is imported.`,
    );
  }
  // {db: [{meta, data}]}, or {meta, data} as older versions wrote it.
  const db: unknown = isObj(doc) && Array.isArray(doc.db) ? (doc.db as unknown[])[0] : doc;
  if (!isObj(db) || !isObj(db.data) || !Array.isArray(db.data.posts)) {
    throw new ImportFileError(`${file.name} is not a Ghost export: it has no db[0].data.posts.`);
  }
  refuseDeepBodies(db.data.posts as unknown[], file.name);
  return { data: db.data, digest };
}

/** The Lexical/Mobiledoc inside posts is JSON too: one nested past MAX_DEPTH refuses the export. */
function refuseDeepBodies(posts: unknown[], name: string): void {
  for (const post of posts) {
    if (!isObj(post)) continue;
    for (const field of ["lexical", "mobiledoc"] as const) {
      const raw = ownValue(post, field);
      const deep = typeof raw === "string" ? jsonTooDeep(raw) : null;
      if (deep)
        throw new ImportLimitError(tooDeepMessage(name, `post ${str(post.id)}, its ${field} at column ${deep.column}`));
    }
  }
}

/** What the posts refer to, by Ghost id. */
type GhostIndex = {
  tags: Map<string, ContentTerm & { internal: boolean }>;
  users: Map<string, ContentPerson>;
  postTags: Map<string, string[]>;
  postAuthors: Map<string, string[]>;
  meta: Map<string, Json>;
  permalink: string;
  tiers: GhostTiers;
  /** The old site's address (ghost-urls.ts), or null. */
  base: string | null;
};

function grouped(list: Json[], key: string, value: string): Map<string, string[]> {
  const sorted = [...list].sort((a, b) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0));
  const map = new Map<string, string[]>();
  for (const row of sorted) {
    const k = str(ownValue(row, key));
    if (!k) continue;
    map.set(k, [...(map.get(k) ?? []), str(ownValue(row, value))]);
  }
  return map;
}

function indexOf(data: Json, base: string | null): GhostIndex {
  const tags = new Map<string, ContentTerm & { internal: boolean }>();
  for (const t of rows(data, "tags")) {
    const name = str(t.name).trim();
    const slug = termSlug(name, str(t.slug));
    if (!name || !slug) continue;
    tags.set(str(t.id), { name, slug, internal: name.startsWith("#") || t.visibility === "internal" });
  }
  const users = new Map<string, ContentPerson>();
  for (const u of rows(data, "users")) {
    const name = str(u.name).trim() || str(u.slug);
    const slug = termSlug(name, str(u.slug));
    if (!slug) continue;
    users.set(str(u.id), { sourceId: str(u.id), name, slug, email: str(u.email) || null, bio: str(u.bio) || null });
  }
  const setting = rows(data, "settings").find((s) => s.key === "permalinks");
  return {
    tags,
    users,
    postTags: grouped(rows(data, "posts_tags"), "post_id", "tag_id"),
    postAuthors: grouped(rows(data, "posts_authors"), "post_id", "author_id"),
    meta: new Map(rows(data, "posts_meta").map((m) => [str(m.post_id), m])),
    permalink: str(setting?.value) || "/:slug/",
    tiers: ghostTiers(data),
    base,
  };
}

const STATUS: Record<string, ContentStatus> = {
  published: "published",
  sent: "draft",
  draft: "draft",
  scheduled: "scheduled",
};

const isTrue = (v: unknown) => v === true || v === 1 || v === "1" || v === "true";

function oldUrl(pattern: string, post: { slug: string; id: string; date: Date | null; tag?: string; author?: string }) {
  const d = post.date ?? new Date(0);
  const two = (n: number) => String(n).padStart(2, "0");
  const path = pattern
    .replace(/:slug/g, post.slug)
    .replace(/:year/g, String(d.getUTCFullYear()))
    .replace(/:month/g, two(d.getUTCMonth() + 1))
    .replace(/:day/g, two(d.getUTCDate()))
    .replace(/:id/g, post.id)
    .replace(/:primary_tag/g, post.tag ?? "all")
    .replace(/:primary_author/g, post.author ?? "all");
  // Only the path is used (the redirect's source path): the host stands for the old site's.
  return `https://ghost.invalid${path.startsWith("/") ? path : `/${path}`}`;
}

/**
 * Subheadline, SEO and canonical URL: custom_excerpt → subheadline (and summary); meta_title,
 * meta_description, og_{title,description,image}, twitter_{title,description,image} and
 * canonical_url, from posts_meta (Ghost 4+) or the post row (older exports).
 */
function ghostSeo(row: Json, meta: Json): Pick<ContentPost, "subheadline" | "seo" | "canonicalUrl"> {
  const field = (name: string) => str(ownValue(meta, name)).trim() || str(ownValue(row, name)).trim() || undefined;
  return {
    subheadline: str(row.custom_excerpt).trim() || null,
    seo: {
      "meta-title": field("meta_title"),
      "meta-description": field("meta_description"),
      "og-title": field("og_title"),
      "og-description": field("og_description"),
      "og-image": field("og_image"),
      "twitter-title": field("twitter_title"),
      "twitter-description": field("twitter_description"),
      "twitter-image": field("twitter_image"),
    },
    canonicalUrl: field("canonical_url") ?? null,
  };
}

/** A row of `posts` as a ContentPost (see the file's comment). */
/** The post's status; an e-mail-only post (status sent, posts_meta.email_only) is a draft, noted. */
function ghostStatus(row: Json, meta: Json, notes: string[]): ContentStatus | undefined {
  const name = str(row.status);
  if (name === "sent" || (isTrue(meta.email_only ?? row.email_only) && name !== "draft")) {
    notes.push("sent as an e-mail only in Ghost, never on the web: imported as an unpublished draft");
    return "draft";
  }
  return ownValue(STATUS, name);
}

/**
 * The body's HTML on the old site's address, split at the paywall when the post is not public
 * (`lockedHtml`); what it leaves out is noted, each image that cannot be kept by its URL.
 */
function ghostBody(row: Json, base: string | null, gated: boolean, notes: string[]) {
  const body = ghostBodyHtml(row);
  if (body.skipped.length) notes.push(`left out of its body: ${[...new Set(body.skipped)].join(", ")}`);
  const html = absoluteHtml(body.html, base);
  for (const src of unkeptImages(html)) notes.push(`its image ${src} is not a web address: left out`);
  const split = splitAtPaywall(html);
  if (!split) return { html, lockedHtml: null };
  return gated ? { html: split.free, lockedHtml: split.locked } : { html: split.free + split.locked, lockedHtml: null };
}

function ghostPost(raw: Json, index: GhostIndex, position: number): ContentPost {
  const id = str(raw.id);
  const row = withGhostUrls(raw, index.base);
  const meta = withGhostUrls(index.meta.get(id) ?? {}, index.base);
  // Ghost 1-2 exports say `page: 1` rather than `type: "page"`.
  const type = str(row.type) || (isTrue(row.page) ? "page" : "post");
  const errors: string[] = [];
  if (!id) errors.push("it has no id");
  const notes: string[] = [];
  const status = ghostStatus(row, meta, notes);
  const access = ghostAccess(row, index.tiers);
  notes.push(...access.notes);
  let date = parseExportDate(str(row.published_at) || str(row.created_at));
  if (date === "invalid") {
    notes.push("its published_at is not a date: dated at the import");
    date = null;
  }
  const body = ghostBody(row, index.base, access.access !== "public", notes);
  const tags = (index.postTags.get(id) ?? []).flatMap((t) => {
    const tag = index.tags.get(t);
    return tag && !tag.internal ? [{ name: tag.name, slug: tag.slug }] : [];
  });
  const authors = (index.postAuthors.get(id) ?? []).flatMap((a) => {
    const user = index.users.get(a);
    return user ? [user] : [];
  });
  if (authors.length === 0 && str(row.author_id) && index.users.get(str(row.author_id))) {
    authors.push(index.users.get(str(row.author_id))!);
  }
  const image = ghostUrlOf(str(row.feature_image), index.base);
  const slug = str(row.slug);
  return {
    sourceId: id,
    type,
    title: str(row.title),
    slug: slug || null,
    html: body.html,
    lockedHtml: body.lockedHtml,
    autop: false,
    excerpt: str(row.custom_excerpt) || null,
    ...ghostSeo(row, meta),
    status: status ?? "draft",
    date,
    authors,
    sections: tags.slice(0, 1),
    tags,
    hero: image
      ? {
          url: image,
          alt: str(meta.feature_image_alt ?? row.feature_image_alt) || null,
          caption: str(meta.feature_image_caption ?? row.feature_image_caption) || null,
        }
      : null,
    metadata: {},
    access: access.access,
    accessLevelValue: access.accessLevelValue,
    // The address a published post had (a draft's or a scheduled one's was never public).
    oldUrl:
      slug && status === "published"
        ? oldUrl(type === "page" ? "/:slug/" : index.permalink, {
            slug,
            id,
            date,
            tag: tags[0]?.slug,
            author: authors[0]?.slug,
          })
        : null,
    // Ghost's Disqus embed names the thread by comment_id (the WordPress post id of a post Ghost
    // imported from WordPress): story-match.ts finds the story by it.
    threadKeys: commentIdThreadKeys(str(row.comment_id)),
    notes,
    skip: status ? null : `its status "${str(row.status) || "(none)"}" is not a post's`,
    errors,
    where: `post ${position + 1}`,
  };
}

/**
 * The export's posts that name the old site by __GHOST_URL__ or root-relative image paths, refused
 * (ImportFileError, before anything is written) when the old site's address is not known.
 */
function requireBase(data: Json, base: string | null, name: string): void {
  if (base) return;
  const meta = new Map(rows(data, "posts_meta").map((m) => [str(m.post_id), m]));
  const needing = rows(data, "posts").filter((row) => needsBase(row, meta.get(str(row.id))));
  if (needing.length === 0) return;
  throw new ImportFileError(
    `${name} names the old Ghost site's own address as __GHOST_URL__ (or by paths such as /content/images/…) in ${needing.length} post(s), first "${str(needing[0]!.title).slice(0, 80)}": their images and links need that address. Give it (--ghost-url https://your-old-site.example), or set the site URL under Settings → Site, and import again; nothing was imported.`,
  );
}

/**
 * A Ghost export as the content source reads it (posts named by their place in `posts`, from 1).
 * `ghostUrl`: the old site's address (--ghost-url), used before the account's site URL.
 */
export function ghostOpener(options: { ghostUrl?: string } = {}) {
  return async (file: ImportFile, account?: PrepareAccount): Promise<ContentFile> => {
    const { data, digest } = await readData(file);
    const base = ghostBase({ ghostUrl: options.ghostUrl, siteUrl: account?.siteUrl });
    requireBase(data, base, file.name);
    const count = rows(data, "posts").length;
    const problems: FileProblem[] = [];
    for (const name of ["tags", "users", "posts_tags", "posts_authors"]) {
      if (!Array.isArray(ownValue(data, name)))
        problems.push({ where: `data.${name}`, message: "absent: the posts have none" });
    }
    return {
      digest,
      problems,
      count,
      posts: async function* () {
        const again = await readData(file);
        const index = indexOf(again.data, base);
        const posts = rows(again.data, "posts");
        for (const [i, row] of posts.entries()) yield ghostPost(row, index, i);
      },
    };
  };
}
