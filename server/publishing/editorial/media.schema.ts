/**
 * The media library's inputs and answers (media.* in the dashboard's tRPC API), and the plain-text
 * rules for what it keeps with an image: its alternative text and the file's name. Pure.
 */
import { z } from "zod";

import { ZImageKey } from "./organise.schema";

export const ALT_MAX_LENGTH = 500;
const FILE_NAME_MAX_LENGTH = 200;

/**
 * Plain text as alt text and file names keep it: no markup (anything tag-like is removed), no
 * control characters, whitespace runs made one space, trimmed. Front ends put alt text in an
 * attribute, so it is text, never HTML: "a < b" stays "a < b".
 */
export function cleanPlainText(value: string): string {
  return value
    .replace(/<\/?[A-Za-z!][^<>]*>/g, " ")
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** A file name as stored: plain text, at most FILE_NAME_MAX_LENGTH characters, no folders. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  return [...cleanPlainText(base)].slice(0, FILE_NAME_MAX_LENGTH).join("");
}

export const ZAltText = z
  .string()
  .max(ALT_MAX_LENGTH * 2, `must be at most ${ALT_MAX_LENGTH} characters`)
  .transform(cleanPlainText)
  .pipe(z.string().max(ALT_MAX_LENGTH, `must be at most ${ALT_MAX_LENGTH} characters`));

export const MEDIA_PAGE_SIZE = 24;

export const ZListMediaInput = z.object({
  /** Searches the file name, the alt text and the key (case-insensitive). */
  search: z.string().trim().max(200).optional(),
  /** "all" staff uploads, or only those nothing references ("unused"). */
  filter: z.enum(["all", "unused"]).default("all"),
  /** How many to skip (offset paging, newest first). */
  offset: z.number().int().min(0).max(100_000).default(0),
  limit: z.number().int().min(1).max(100).default(MEDIA_PAGE_SIZE),
});
export type TListMediaInput = z.input<typeof ZListMediaInput>;

export const ZMediaKeyInput = z.object({ key: ZImageKey });
export const ZUpdateAltInput = z.object({ key: ZImageKey, alt: ZAltText });

/** Where an image is used: a story (linked in the library), or another thing that names it. */
const ZMediaUse = z.object({
  kind: z.enum(["story", "author", "collection", "entity", "page", "settings"]),
  id: z.string(),
  label: z.string(),
  /** The dashboard page that edits it, when there is one. */
  href: z.string().nullable(),
  /** Where in it: "heroImage", "cards.0.story-elements.1.image-s3-key", "avatarS3Key"… */
  field: z.string(),
});
export type TMediaUse = z.infer<typeof ZMediaUse>;

export const ZMediaItem = z.object({
  id: z.string(),
  key: z.string(),
  url: z.string(),
  /** The thumbnail's address, or the original's when it has none. */
  thumbUrl: z.string(),
  hasThumbnail: z.boolean(),
  fileName: z.string(),
  alt: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  "mime-type": z.string(),
  bytes: z.number().int(),
  uploadedBy: z.string().nullable(),
  createdAt: z.date(),
  usedIn: z.array(ZMediaUse),
});
export type TMediaItem = z.infer<typeof ZMediaItem>;

export const ZMediaPage = z.object({
  items: z.array(ZMediaItem),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type TMediaPage = z.infer<typeof ZMediaPage>;
