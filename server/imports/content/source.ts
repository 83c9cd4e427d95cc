/**
 * Content exports as import sources (docs/migration.md): a reader turns the file into
 * ContentPosts (wxr.ts, ghost.ts), story-plan.ts turns each into a story. One item per post, in
 * the file's order; the authors, sections, tags and redirects a story brings are counted under
 * their kinds.
 */
import "server-only";

import { graphemePrefix } from "../../text/graphemes";
import type { ImportFile, ImportItem, ImportSource, PrepareAccount, PreparedSource } from "../types";
import { COLLECTION_KIND, planCollection } from "./collection-plan";
import type { ContentCollection } from "./content-api-collections";
import type { ContentPost } from "./records";
import { ImageHosts, planStory, REDIRECT_KIND, STORY_KIND } from "./story-plan";

type ContentItem = ImportItem &
  ({ kind: typeof STORY_KIND; post: ContentPost } | { kind: typeof COLLECTION_KIND; collection: ContentCollection });

/** What a reader found on its first read, and how to read the posts again. */
export type ContentFile = {
  digest: string;
  /** The site the posts' ids belong to (types.ts siteScope), when the file says. */
  site?: string;
  problems: PreparedSource["problems"];
  /** Posts and collections. */
  count: number;
  posts: () => AsyncIterable<ContentPost>;
  /** The collections, children first, imported after the posts (content API: content-api-collections.ts). */
  collections?: ContentCollection[];
};

const KINDS = [STORY_KIND, "author", "section", "tag", REDIRECT_KIND] as const;

/**
 * A content source. `commentsSource`: the source that imports the comments of the same files
 * ("wxr-comments"): each story's page is recorded for it (comment-pages.ts).
 */
export function contentSource(
  name: string,
  description: string,
  open: (file: ImportFile, account?: PrepareAccount) => Promise<ContentFile>,
  options: { commentsSource?: string; collections?: boolean } = {},
): ImportSource<ContentItem> {
  return {
    name,
    description,
    kinds: [...KINDS, ...(options.commentsSource ? ["page"] : []), ...(options.collections ? [COLLECTION_KIND] : [])],
    prepare: async (file, account) => {
      const content = await open(file, account);
      const imageHosts = new ImageHosts();
      return {
        digest: content.digest,
        site: content.site,
        itemCount: content.count,
        problems: content.problems,
        items: async function* () {
          for await (const post of content.posts()) {
            const title = graphemePrefix(post.title.trim(), 80);
            yield {
              kind: STORY_KIND,
              sourceId: post.sourceId || post.where,
              label: `${post.type} ${post.sourceId || "?"}${title ? ` "${title}"` : ""} (${post.where})`,
              post,
            };
          }
          for (const collection of content.collections ?? []) {
            yield {
              kind: COLLECTION_KIND,
              sourceId: collection.slug,
              label: `collection ${collection.slug} "${graphemePrefix(collection.name.trim(), 80)}"`,
              collection,
            };
          }
        },
        plan: (db, item, ctx) =>
          item.kind === COLLECTION_KIND
            ? planCollection(db, item.collection, ctx)
            : planStory(db, item.post, ctx, { ...options, imageHosts }),
        // One statement per kind for what a batch looks up: its stories, authors, sections and tags.
        prefetch: async (db, items, ctx) => {
          const posts = items.flatMap((item) => (item.kind === STORY_KIND && !item.post.skip ? [item.post] : []));
          await ctx.preload(
            db,
            STORY_KIND,
            posts.map((post) => post.sourceId),
          );
          await ctx.preload(
            db,
            "author",
            posts.flatMap((post) => post.authors.map((a) => a.slug)),
          );
          await ctx.preload(
            db,
            "section",
            posts.flatMap((post) => post.sections.map((t) => t.slug)),
          );
          await ctx.preload(
            db,
            "tag",
            posts.flatMap((post) => post.tags.map((t) => t.slug)),
          );
        },
      };
    },
  };
}
