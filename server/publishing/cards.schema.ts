/**
 * Story cards and their story-elements, in the wire shape (kebab-case keys, spec §2.3): the
 * dashboard validates what editors save with these, the seed builds with them, and the read API
 * returns them as stored: made safe on save (server/publishing/editorial/sanitize.ts).
 */
import { z } from "zod";

/** The one URL rule (server/web-url.ts), for the dashboard's rich-text editor's links. */
export { checkWebUrl } from "../web-url";

export const STORY_ELEMENT_TYPES = [
  "text",
  "title",
  "image",
  "youtube-video",
  "jsembed",
  "quote",
  "blockquote",
  "summary",
  "bigfact",
  "composite",
  "file",
] as const;

/** Subtypes the renderers (AMP, instant articles) understand for jsembed elements. */
export const JSEMBED_SUBTYPES = ["tweet", "location", "instagram", "facebook-post"] as const;

/** Subtypes of composite elements (a composite holds story-elements of its own). */
export const COMPOSITE_SUBTYPES = ["image-gallery"] as const;

const zImageMetadata = z
  .object({
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    "mime-type": z.string().optional(),
    "focus-point": z.tuple([z.number(), z.number()]).optional(),
  })
  .loose();

/**
 * Links that front ends render as href/src: http(s) only, never javascript:, data: or vbscript:.
 * A first check for forms; the one URL rule (server/web-url.ts: no whitespace, controls or
 * credentials, stored normalised) is applied to these and every other link-bearing field on save
 * (server/publishing/editorial/sanitize.ts). It is not applied here because this schema also
 * checks the dashboard's output, which must still read stories saved before that rule.
 */
const zWebUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).max(2_000);

const ZStoryElementFields = z
  .object({
    id: z.uuid(),
    type: z.enum(STORY_ELEMENT_TYPES),
    subtype: z.string().max(50).nullable().default(null),
    /** HTML (sanitised on save, like every other string field but ids and links). */
    text: z.string().max(200_000).optional(),
    title: z.string().max(1_000).optional(),
    description: z.string().max(5_000).optional(),
    "image-s3-key": z.string().max(500).optional(),
    "image-metadata": zImageMetadata.optional(),
    "image-attribution": z.string().max(500).optional(),
    url: zWebUrl.optional(),
    "embed-url": zWebUrl.optional(),
    "page-url": z.string().max(2_000).optional(),
    /** youtube-video */
    "video-id": z.string().max(50).optional(),
    /** jsembed / tweet */
    "tweet-id": z
      .string()
      .regex(/^\d{1,30}$/)
      .optional(),
    "embed-js": z.string().max(100_000).optional(),
    "family-id": z.uuid().optional(),
    /** file: the file's link, name and MIME type. */
    // Checked on save by the one URL rule (as page-url): zod's url() would silently drop CR/LF.
    "file-url": z.string().max(2_000).optional(),
    "file-name": z.string().max(500).optional(),
    "content-type": z.string().max(200).optional(),
    /**
     * bigfact and blockquote: `content` (the text, also in `text`) and `attribution`; quote:
     * `attribution`; image: `alt`. HTML, like every string here.
     */
    metadata: z.record(z.string(), z.unknown()).default({}),
  })
  .loose();

export const ZStoryElement = ZStoryElementFields.extend({
  /** composite (subtype image-gallery): the elements it holds, images for a gallery. */
  "story-elements": z.array(ZStoryElementFields).max(100).optional(),
});
export type TStoryElement = z.infer<typeof ZStoryElement>;

const ZCard = z.object({
  id: z.uuid(),
  "content-id": z.uuid().optional(),
  status: z.string().default("draft"),
  version: z.number().int().positive().default(1),
  "story-elements": z.array(ZStoryElement).max(200),
  metadata: z.record(z.string(), z.unknown()).default({}),
  "card-added-at": z.number().int().optional(),
  "card-updated-at": z.number().int().optional(),
  "content-version-id": z.uuid().optional(),
});
export type TCard = z.infer<typeof ZCard>;

export const ZCards = z.array(ZCard).max(500);
