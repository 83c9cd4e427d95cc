/**
 * Page metadata (`talktype.pageMetadataSetter(accountId, pageUrl, pageMetadata)`; spec §2.1 Page;
 * docs/engagement.md, "Page metadata"): a flat object whose values are strings, numbers or arrays
 * of them, bounded by PAGE_METADATA_LIMITS.
 */
import { z } from "zod";

import { ZPageParams } from "./comments.schema";

export const PAGE_METADATA_LIMITS = {
  /** Keys of one metadata object. */
  maxKeys: 50,
  /** Characters of one string value. */
  maxStringLength: 2_000,
  /** Items of one array value. */
  maxArrayItems: 100,
  /** Bytes of the metadata as JSON (413 beyond). */
  maxBytes: 10_240,
  /** Bytes of a request body on the metadata endpoint. */
  maxBodyBytes: 32 * 1024,
  /** Author ids in a metadata_jwt, and characters of each. */
  maxAuthorIds: 50,
  maxAuthorIdLength: 100,
  /** Characters of a headline (og:title). */
  maxHeadlineLength: 500,
};

// C0 controls other than tab and line feed, DEL and C1 controls.
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f-\u009f]/;

const zString = z
  .string()
  .max(PAGE_METADATA_LIMITS.maxStringLength)
  .refine((s) => !CONTROL.test(s), "must not contain control characters (other than tab and line feed)");
const zScalar = z.union([zString, z.number()]);

/** Keys: a letter or digit first, then letters, digits and `_ : . -` (og:title, article:section, author_ids). */
const zKey = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_:.-]{0,99}$/, "keys are 1 to 100 of A-Z a-z 0-9 _ : . - (a letter or digit first)");

const ZPageMetadata = z
  .record(
    zKey,
    z.union([zScalar, z.array(zScalar).max(PAGE_METADATA_LIMITS.maxArrayItems)], {
      error: "must be a string, a number or an array of strings and numbers (no objects, no nesting)",
    }),
  )
  .refine((m) => Object.keys(m).length <= PAGE_METADATA_LIMITS.maxKeys, {
    message: `at most ${PAGE_METADATA_LIMITS.maxKeys} keys`,
  });
export type TPageMetadata = z.output<typeof ZPageMetadata>;

/** PUT .../pages/<b64>/metadata */
export const ZPageMetadataBody = z.object({
  metadata: ZPageMetadata,
  /** Publisher-signed (shared key): {page_url, author_ids}. The only way to set the page's authors. */
  metadata_jwt: z.string().max(16_384).optional(),
  /** The reader's jwt: optional, checked when given (401), not needed. */
  jwt: z.string().optional(),
});
export type TPageMetadataBody = z.output<typeof ZPageMetadataBody>;

export const ZPageMetadataParams = ZPageParams;

/** The claims of a metadata_jwt. */
export const ZMetadataClaims = z.object({
  page_url: z.string().min(1).max(8_192),
  author_ids: z
    .array(z.union([z.string().min(1).max(PAGE_METADATA_LIMITS.maxAuthorIdLength), z.number().int()]).transform(String))
    .max(PAGE_METADATA_LIMITS.maxAuthorIds),
});

/** The answer: the page as stored (its authors only counted: their ids are the publisher's). */
export type TPageMetadataAnswer = {
  page: {
    id: number;
    page_url: string;
    headline: string | null;
    hero_image_url: string | null;
    metadata: TPageMetadata;
    author_ids_count: number;
  };
  /** Keys of `metadata` that were not taken (author_ids without a metadata_jwt). */
  ignored: string[];
};
