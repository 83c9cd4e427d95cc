/**
 * What a content export holds, whatever system wrote it (WordPress WXR: wxr.ts; Ghost JSON:
 * ghost.ts), as the content source (source.ts) reads it: one ContentPost per post or page, its
 * people and terms by the export's own names, its body still HTML (html-to-elements.ts turns it
 * into story elements when it is planned).
 */
import type { TStoryElement } from "../../publishing/cards.schema";
import type { AttachmentImage } from "./shortcodes";

/** A person of the export (a WordPress user, a Ghost staff user). `slug` finds the Masthead author. */
export type ContentPerson = { sourceId: string; name: string; slug: string; email: string | null; bio?: string | null };

/** A category or tag: `slug` finds the Masthead section or tag. */
export type ContentTerm = { name: string; slug: string };

/** What the story becomes: published at `date`, a draft, or scheduled for `date`. */
export type ContentStatus = "published" | "draft" | "scheduled";

/** Masthead's access setting of a story (Story.access). */
export type ContentAccess = "public" | "login" | "subscription";

/**
 * A story's SEO fields as Masthead's content API serves them (Story.seo): "meta-title",
 * "meta-description", "meta-keywords", and the social card's title, description and image.
 */
export type ContentSeo = {
  "meta-title"?: string;
  "meta-description"?: string;
  "meta-keywords"?: string[];
  "og-title"?: string;
  "og-description"?: string;
  "og-image"?: string;
  "twitter-title"?: string;
  "twitter-description"?: string;
  "twitter-image"?: string;
};

export type ContentPost = {
  sourceId: string;
  /** "post" or "page" (kept in the story's metadata). */
  type: string;
  title: string;
  /** The post's own slug (WordPress post_name, Ghost slug), when it has one. */
  slug: string | null;
  html: string;
  /**
   * The body as story elements already (another Masthead content API: content-api.ts, checked
   * with the cards schema): used instead of `html`, and saved through the editor's path as well.
   */
  elements?: TStoryElement[];
  /** Classic-editor text: newlines are paragraphs (html-to-elements.ts). */
  autop: boolean;
  excerpt: string | null;
  /** The line under the headline (WordPress: a subtitle plugin's field; Ghost: custom_excerpt). */
  subheadline?: string | null;
  /** SEO fields the export states (Yoast, Rank Math, Ghost's meta and social fields). */
  seo?: ContentSeo;
  /** The canonical URL the export states, when it is not the post's own address. */
  canonicalUrl?: string | null;
  status: ContentStatus;
  date: Date | null;
  authors: ContentPerson[];
  /** The first is the story's primary section. */
  sections: ContentTerm[];
  tags: ContentTerm[];
  hero: AttachmentImage | null;
  /** Custom fields Masthead keeps (the story's metadata). */
  metadata: Record<string, string>;
  access: ContentAccess;
  /**
   * The story's access level (Story.accessLevelValue): subscriptions whose story asset has an
   * access_level below it do not read it (access-rule.ts). Unset: none.
   */
  accessLevelValue?: number | null;
  /**
   * The part of the body after the paywall split point, as HTML (`html` is then the free part):
   * the story's paywallAt is the number of elements `html` makes. Unset: no split point.
   */
  lockedHtml?: string | null;
  /** The post's address in the old site, absolute; its path becomes a 301 to the story. */
  oldUrl: string | null;
  /**
   * What else comment exports may name the post by (comments/story-match.ts): the Disqus thread
   * id the Disqus plugin kept ("dsq:<id>"), the slugs it had before ("slug:<old slug>"), a Ghost
   * post's comment_id ("ghost:<comment_id>", "post:<WordPress post id>").
   */
  threadKeys?: string[];
  /** Comments closed on it in the old site (WordPress comment_status "closed"): its comments page is closed. */
  commentsClosed?: boolean;
  /** Choices made on the operator's behalf, for the report (a private post made a draft). */
  notes: string[];
  /** Why it is not imported (an attachment, a trashed post): a skip. */
  skip: string | null;
  /** What is wrong with it: a refusal. */
  errors: string[];
  /** [gallery ids] of the post: its attachments. */
  attachment?: (id: string) => AttachmentImage | undefined;
  /** [gallery] without ids: the images attached to the post, in their order. */
  attached?: () => AttachmentImage[];
  /** Where it is in the file, for the report ("line 120", "post 3"). */
  where: string;
};
