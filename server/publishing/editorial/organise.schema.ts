/**
 * Inputs of the editorial dashboard for everything that organises stories: sections, authors,
 * tags, entities, collections and images (server/publishing/editorial/{taxonomy,collections,images}.ts,
 * the tRPC router `organise`, and the forms under components/content/organise). Imports only zod
 * and helpers without imports of their own, so the forms can use the same schemas and helpers.
 */
import { z } from "zod";

import { isSlug } from "../../text/slug";
import { zWebUrl } from "../../web-url";

// ─── Shared fields ───────────────────────────────────────────────────────────────────────────

/**
 * A slug (server/text/slug.ts: letters, marks and digits of any script in words joined by single
 * hyphens, lower case, Latin diacritics left out), at most 100 code units. Typed text is trimmed,
 * lower-cased and composed (NFC) first.
 */
const zSlug = z
  .string()
  .trim()
  .toLowerCase()
  .normalize("NFC")
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .refine(
    (slug) => isSlug(slug),
    "use letters, digits and single hyphens, without accents on Latin letters (e.g. world-news, भारत-समाचार)",
  );
const zName = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
/** Optional text: an empty string clears it (stored as null). */
const zOptionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((value) => (value === "" ? null : value))
    .nullable();
/** A row id: PostgreSQL's integer (anything larger is no id of ours, and the database would refuse it). */
const zId = z.number().int().positive().max(2_147_483_647);
const zJsonObject = z.record(z.string(), z.unknown());
const zSearch = z.string().trim().max(200).optional();
const zLimit = z.number().int().min(1).max(200).default(50);
const zOffset = z.number().int().min(0).max(1_000_000).default(0);

export const ZIdInput = z.object({ id: zId });

// ─── Sections ────────────────────────────────────────────────────────────────────────────────

export const ZCreateSectionInput = z.object({
  name: zName,
  /** Shown to readers; defaults to the name. */
  displayName: zName.optional(),
  /** Defaults to the name, slugified. Unique per account. */
  slug: zSlug.optional(),
  parentId: zId.nullable().default(null),
});
export type TCreateSectionInput = z.input<typeof ZCreateSectionInput>;

export const ZUpdateSectionInput = z.object({
  id: zId,
  name: zName.optional(),
  displayName: zName.optional(),
  slug: zSlug.optional(),
  /** null makes it a top-level section. */
  parentId: zId.nullable().optional(),
});
export type TUpdateSectionInput = z.input<typeof ZUpdateSectionInput>;

// ─── Authors ─────────────────────────────────────────────────────────────────────────────────

/** An avatar or other link: the one URL rule (server/web-url.ts), stored normalised. */
const zHttpUrl = zWebUrl({ maxLength: 1000 });

/** An uploaded image's key: "<accountId>/<yyyy>/<mm>/<uuid>.<ext>" (POST /api/admin/images). */
export const IMAGE_KEY_PATTERN =
  /^[1-9][0-9]{0,9}\/[0-9]{4}\/[0-9]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(?:jpg|png|webp|gif)$/;
export const ZImageKey = z.string().regex(IMAGE_KEY_PATTERN, "must be the key of an uploaded image");

/**
 * Where an image field may point: an uploaded image's key, or an http(s) URL (allowed only on the
 * hosts the account lists: server/publishing/editorial/image-refs.ts checks both on save).
 */
const ZImageRef = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (value) => IMAGE_KEY_PATTERN.test(value) || /^https?:\/\//i.test(value),
    "must be the key of an uploaded image, or an image URL",
  );

const zTwitterHandle = z
  .string()
  .trim()
  .transform((value) => value.replace(/^@/, ""))
  .refine(
    (value) => value === "" || /^[A-Za-z0-9_]{1,15}$/.test(value),
    "must be a Twitter/X handle (letters, digits, _; at most 15)",
  )
  .transform((value) => (value === "" ? null : value))
  .nullable();

export const ZCreateAuthorInput = z.object({
  name: zName,
  slug: zSlug.optional(),
  email: z
    .union([z.literal(""), z.email("must be an e-mail address").max(320)])
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional(),
  bio: zOptionalText(5000).optional(),
  avatarUrl: z
    .union([z.literal(""), zHttpUrl])
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional(),
  avatarS3Key: z
    .union([z.literal(""), ZImageRef])
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional(),
  twitterHandle: zTwitterHandle.optional(),
});
export type TCreateAuthorInput = z.input<typeof ZCreateAuthorInput>;

export const ZUpdateAuthorInput = ZCreateAuthorInput.partial().extend({ id: zId });
export type TUpdateAuthorInput = z.input<typeof ZUpdateAuthorInput>;

export const ZListInput = z.object({ q: zSearch, limit: zLimit, offset: zOffset });
export type TListInput = z.input<typeof ZListInput>;

// ─── Tags ────────────────────────────────────────────────────────────────────────────────────

export const ZCreateTagInput = z.object({
  name: zName,
  slug: zSlug.optional(),
  metaDescription: zOptionalText(500).optional(),
});
export type TCreateTagInput = z.input<typeof ZCreateTagInput>;

/** Rename (and re-slug, re-describe) a tag. */
export const ZUpdateTagInput = ZCreateTagInput.partial().extend({ id: zId });
export type TUpdateTagInput = z.input<typeof ZUpdateTagInput>;

// ─── Entities ────────────────────────────────────────────────────────────────────────────────

const zEntityType = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, "use lower-case letters, digits, - and _ (e.g. person, sports-team)");
/** A relation's name as it appears in paths (/api/v1/entities/<id>/<relation>): e.g. "players". */
const zRelation = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, "use lower-case letters, digits, - and _ (e.g. players)");

export const ZCreateEntityInput = z.object({
  name: zName,
  type: zEntityType,
  slug: zSlug.optional(),
  metadata: zJsonObject.default({}),
});
export type TCreateEntityInput = z.input<typeof ZCreateEntityInput>;

export const ZUpdateEntityInput = z.object({
  id: zId,
  name: zName.optional(),
  type: zEntityType.optional(),
  slug: zSlug.nullable().optional(),
  metadata: zJsonObject.optional(),
});
export type TUpdateEntityInput = z.input<typeof ZUpdateEntityInput>;

export const ZListEntitiesInput = ZListInput.extend({ type: zEntityType.optional() });
export type TListEntitiesInput = z.input<typeof ZListEntitiesInput>;

export const ZAddRelationshipInput = z.object({
  fromId: zId,
  relation: zRelation,
  toId: zId,
  rank: z.number().int().min(0).max(1_000_000).default(0),
});
export type TAddRelationshipInput = z.input<typeof ZAddRelationshipInput>;

// ─── Collections ─────────────────────────────────────────────────────────────────────────────

export const COLLECTION_SORTS = ["published-at", "last-published-at"] as const;

/**
 * Rules of an automated collection: published stories matching every rule given (a story
 * matches a list rule when it has any of the listed values), newest first by `sort`.
 */
export const ZCollectionRules = z.strictObject({
  "section-ids": z.array(zId).max(100).optional(),
  "tag-slugs": z.array(zSlug).max(100).optional(),
  "author-ids": z.array(zId).max(100).optional(),
  "story-templates": z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  sort: z.enum(COLLECTION_SORTS).optional(),
});
export type TCollectionRules = z.infer<typeof ZCollectionRules>;

const zTemplate = z.string().trim().min(1).max(100);

export const ZCreateCollectionInput = z.object({
  name: zName,
  slug: zSlug.optional(),
  summary: z.string().trim().max(2000).default(""),
  template: zTemplate.default("default"),
  metadata: zJsonObject.default({}),
  automated: z.boolean().default(false),
  rules: ZCollectionRules.default({}),
});
export type TCreateCollectionInput = z.input<typeof ZCreateCollectionInput>;

export const ZUpdateCollectionInput = z.object({
  id: zId,
  name: zName.optional(),
  slug: zSlug.optional(),
  summary: z.string().trim().max(2000).optional(),
  template: zTemplate.optional(),
  metadata: zJsonObject.optional(),
  automated: z.boolean().optional(),
  rules: ZCollectionRules.optional(),
});
export type TUpdateCollectionInput = z.input<typeof ZUpdateCollectionInput>;

/** Layout hints a front end reads from an item (associated-metadata), e.g. {"layout": "four-col"}. */
const ZAssociatedMetadata = z.looseObject({ layout: z.string().trim().min(1).max(100).optional() });

const ZCollectionItemInput = z.union([
  z.strictObject({ storyId: z.uuid(), associatedMetadata: ZAssociatedMetadata.optional() }),
  z.strictObject({ collectionId: zId, associatedMetadata: ZAssociatedMetadata.optional() }),
]);

/** The complete ordered list of a manual collection's items: it replaces the previous one. */
export const ZSetCollectionItemsInput = z
  .object({ id: zId, items: z.array(ZCollectionItemInput).max(500, "at most 500 items") })
  .superRefine((input, ctx) => {
    const seen = new Set<string>();
    input.items.forEach((item, index) => {
      const key = "storyId" in item ? `s:${item.storyId}` : `c:${item.collectionId}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["items", index], message: "appears twice in the list" });
      seen.add(key);
    });
  });
export type TSetCollectionItemsInput = z.input<typeof ZSetCollectionItemsInput>;

export const ZListCollectionsInput = ZListInput.extend({ automated: z.boolean().optional() });
export type TListCollectionsInput = z.input<typeof ZListCollectionsInput>;

/** The story picker: stories of the account by headline words, published ones by default. */
export const ZPickStoriesInput = z.object({
  q: zSearch,
  status: z.enum(["published", "any"]).default("published"),
  limit: z.number().int().min(1).max(50).default(20),
});
export type TPickStoriesInput = z.input<typeof ZPickStoriesInput>;

// ─── Images ──────────────────────────────────────────────────────────────────────────────────

/** What an upload may be, by its content (magic bytes), and the extension its key gets. */
export const IMAGE_TYPES = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
} as const;
export type TImageMimeType = keyof typeof IMAGE_TYPES;

export const ZUploadedImage = z.object({
  key: z.string(),
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  "mime-type": z.enum(Object.keys(IMAGE_TYPES) as [TImageMimeType, ...TImageMimeType[]]),
});
export type TUploadedImage = z.infer<typeof ZUploadedImage>;
