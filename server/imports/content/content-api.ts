/**
 * The stories of another site serving Masthead's content API (docs/migration.md, "From another
 * content API"), read as ContentPosts: `npm run import -- --from content-api BASE_URL`.
 *
 * - Listed by `GET {base}/api/v1/stories?limit=100&offset=…` (published stories, newest first),
 *   page by page: the first read keeps only each story's id and update time (the count, and the
 *   digest), the second yields the stories one page at a time.
 * - Body: the story's cards' elements, checked with the cards schema (ZCards); a story whose cards
 *   are not Masthead's is refused. story-plan.ts then saves them through the editor's own path
 *   (normalizeCards: sanitised, the URL rule), as any import.
 * - Images: an `image-s3-key` that is not a URL (the old site's storage) becomes a URL on its
 *   image CDN (`cdn-image` of `{base}/api/v1/config`), so its host must be among the account's
 *   external image hosts (story-plan.ts).
 * - Authors, sections (the first is the primary) and tags: by slug (terms.ts).
 * - Old URL: the story's `url`; its path becomes a 301 to the new story.
 * - access: public, login or subscription as it was; anything else public, said in the report.
 *
 * - Collections: read after the stories (content-api-collections.ts), imported after them.
 *
 * Requests go through content-api-fetch.ts (the address guard, a timeout, a size limit, retries).
 */
import { createHash } from "node:crypto";

import { z } from "zod";

import { ownValue } from "@/server/own-keys";

import { ZCards, type TStoryElement } from "../../publishing/cards.schema";
import { ImportFileError, siteScope, type ImportFile } from "../types";
import { learnFromStory, newClues, readCollections } from "./content-api-collections";
import { DEFAULT_FETCH_OPTIONS, getJson, type FetchOptions } from "./content-api-fetch";
import type { ContentAccess, ContentPerson, ContentPost, ContentTerm } from "./records";
import type { ContentFile } from "./source";
import { termSlug } from "./term-slug";

/** Stories asked for a page (the API's most). */
export const PAGE_SIZE = 100;
/** The most stories listed (a source that pages forever stops here). */
const MAX_STORIES = 1_000_000;

const ZTerm = z.object({ name: z.string().max(500), slug: z.string().max(500) }).loose();
const ZWireStory = z
  .object({
    id: z.union([z.string().min(1).max(100), z.number().int()]),
    headline: z.string().max(5_000).nullish(),
    slug: z.string().max(1_000).nullish(),
    summary: z.string().max(10_000).nullish(),
    url: z.string().max(2_000).nullish(),
    access: z.string().nullish(),
    cards: z.array(z.unknown()).max(500).nullish(),
    authors: z.array(ZTerm.extend({ id: z.unknown(), bio: z.string().nullish() })).nullish(),
    sections: z.array(ZTerm).nullish(),
    tags: z.array(ZTerm).nullish(),
    "hero-image-s3-key": z.string().max(2_000).nullish(),
    "hero-image-caption": z.string().max(5_000).nullish(),
    "hero-image-metadata": z.record(z.string(), z.unknown()).nullish(),
    "published-at": z.number().nullish(),
    "updated-at": z.number().nullish(),
  })
  .loose();
type WireStory = z.infer<typeof ZWireStory>;

/**
 * How the API is read: the requests' limits (content-api-fetch.ts), the stories a page, and the
 * collections the operator names (--collections) besides those found.
 */
type ApiOptions = FetchOptions & { pageSize: number; collections?: readonly string[] };

const ACCESS: Record<string, ContentAccess> = { public: "public", login: "login", subscription: "subscription" };

/** The API's root: http(s), no query; or an ImportFileError. */
function baseUrlOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ImportFileError(`${text} is not a URL: --from content-api takes the site's base URL (https://…).`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ImportFileError(`${text} is not an http(s) URL.`);
  }
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

const apiUrl = (base: URL, path: string, query: Record<string, string> = {}) => {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
};

/** One page of stories, as the API sent them (each still unchecked). */
async function page(base: URL, offset: number, options: ApiOptions): Promise<unknown[]> {
  const url = apiUrl(base, "api/v1/stories", { limit: String(options.pageSize), offset: String(offset) });
  const body = await getJson(url, options);
  const stories: unknown =
    typeof body === "object" && body !== null ? (body as { stories?: unknown }).stories : undefined;
  if (!Array.isArray(stories)) {
    throw new ImportFileError(`${base.href} is not a content API: ${url.pathname} did not answer {stories: [...]}.`);
  }
  return stories as unknown[];
}

async function* pages(base: URL, options: ApiOptions): AsyncGenerator<unknown[]> {
  for (let offset = 0; offset < MAX_STORIES; offset += options.pageSize) {
    const stories = await page(base, offset, options);
    if (stories.length > 0) yield stories;
    if (stories.length < options.pageSize) return;
  }
}

/** The old site's image CDN host (`cdn-image` of its config), or null. */
async function imageCdn(base: URL, options: FetchOptions): Promise<string | null> {
  const config = await getJson(apiUrl(base, "api/v1/config"), options, "null").catch((error: unknown) => {
    if (error instanceof ImportFileError) return null;
    throw error;
  });
  const cdn = typeof config === "object" && config !== null ? (config as Record<string, unknown>)["cdn-image"] : null;
  return typeof cdn === "string" && /^[a-z0-9.-]+(:\d+)?$/i.test(cdn) ? cdn : null;
}

const imageUrl = (key: string, cdn: string | null) =>
  /^https?:\/\//i.test(key) || cdn === null ? key : `https://${cdn}/${key.replace(/^\/+/, "")}`;

function withImageUrls(element: TStoryElement, cdn: string | null): TStoryElement {
  const key = element["image-s3-key"];
  const nested = element["story-elements"];
  return {
    ...element,
    ...(typeof key === "string" ? { "image-s3-key": imageUrl(key, cdn) } : {}),
    ...(nested ? { "story-elements": nested.map((e) => withImageUrls(e as TStoryElement, cdn)) } : {}),
  };
}

const term = (t: { name: string; slug: string }): ContentTerm | null => {
  const slug = termSlug(t.name, t.slug);
  const name = t.name.trim() || slug;
  return slug ? { name, slug } : null;
};

const issues = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(story)"} ${i.message}`)
    .join("; ");

/** One listed story as a ContentPost (see the file's comment); `where` is its place in the list. */
function wirePost(raw: unknown, cdn: string | null, where: string): ContentPost {
  const parsed = ZWireStory.safeParse(raw);
  const post: ContentPost = {
    sourceId: "",
    type: "story",
    title: "",
    slug: null,
    html: "",
    autop: false,
    excerpt: null,
    status: "published",
    date: null,
    authors: [],
    sections: [],
    tags: [],
    hero: null,
    metadata: {},
    access: "public",
    oldUrl: null,
    notes: [],
    skip: null,
    errors: [],
    where,
  };
  if (!parsed.success) {
    const id = (raw as { id?: unknown } | null)?.id;
    post.sourceId = typeof id === "string" || typeof id === "number" ? String(id).slice(0, 100) : "";
    post.errors.push(`it is not a story of the content API: ${issues(parsed.error)}`);
    return post;
  }
  const story: WireStory = parsed.data;
  post.sourceId = String(story.id);
  post.title = story.headline ?? "";
  post.slug = story.slug ?? null;
  post.excerpt = story.summary ?? null;
  const cards = ZCards.safeParse(story.cards ?? []);
  if (cards.success) {
    post.elements = cards.data.flatMap((card) => card["story-elements"].map((e) => withImageUrls(e, cdn)));
  } else {
    post.errors.push(`its cards are not Masthead's: ${issues(cards.error)}`);
  }
  const published = story["published-at"];
  post.date = typeof published === "number" && Number.isFinite(published) ? new Date(published) : null;
  if (post.date && Number.isNaN(post.date.getTime())) post.errors.push("its published-at is not a date");
  post.authors = (story.authors ?? []).flatMap((a): ContentPerson[] => {
    const t = term(a);
    return t ? [{ sourceId: t.slug, name: t.name, slug: t.slug, email: null, bio: a.bio ?? null }] : [];
  });
  post.sections = (story.sections ?? []).flatMap((s) => term(s) ?? []);
  post.tags = (story.tags ?? []).flatMap((t) => term(t) ?? []);
  const hero = story["hero-image-s3-key"];
  if (hero) {
    const alt = story["hero-image-metadata"]?.alt;
    post.hero = {
      url: imageUrl(hero, cdn),
      alt: typeof alt === "string" ? alt : null,
      caption: story["hero-image-caption"] ?? null,
    };
  }
  const access = ownValue(ACCESS, story.access ?? "public");
  if (!access) post.notes.push(`its access "${story.access}" is not known: imported as public`);
  post.access = access ?? "public";
  post.oldUrl = story.url ?? null;
  return post;
}

/** The stories of a content API at `file.path` (a base URL), as the content source reads them. */
async function openContentApi(file: ImportFile, options: ApiOptions): Promise<ContentFile> {
  const base = baseUrlOf(file.path);
  const hash = createHash("sha256").update(base.href);
  let count = 0;
  const clues = newClues();
  for await (const stories of pages(base, options)) {
    for (const raw of stories) {
      learnFromStory(clues, raw);
      const story = (typeof raw === "object" && raw !== null ? raw : {}) as { id?: unknown; "updated-at"?: unknown };
      hash.update(`\n${String(story.id)} ${String(story["updated-at"])}`);
      count++;
    }
  }
  const cdn = await imageCdn(base, options);
  const { collections, problems } = await readCollections(base, options, {
    named: options.collections ?? [],
    clues,
    hash,
  });
  return {
    digest: hash.digest("hex"),
    site: siteScope(base.href),
    problems,
    count: count + collections.length,
    collections,
    posts: async function* () {
      let position = 0;
      for await (const stories of pages(base, options)) {
        for (const raw of stories) yield wirePost(raw, cdn, `story ${++position}`);
      }
    },
  };
}

/** `openContentApi` with the operator's fetch options (content-api-fetch.ts). */
export const contentApiOpener =
  (options: Partial<ApiOptions> & { allowPrivate: boolean }) =>
  (file: ImportFile): Promise<ContentFile> =>
    openContentApi(file, { ...DEFAULT_FETCH_OPTIONS, pageSize: PAGE_SIZE, ...options });
