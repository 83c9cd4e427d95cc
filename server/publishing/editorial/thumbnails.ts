/**
 * Thumbnails of uploaded images, made with sharp (libvips): 320 px wide WebP, turned upright by
 * the EXIF orientation, every metadata block (EXIF, GPS, ICC, XMP) left out, never enlarged; an
 * animated GIF or WebP gives its first frame.
 *
 * A thumbnail lives in the same ImageStorage as its original, under "<key>.thumb.webp" (for
 * "1/2026/11/<uuid>.jpg", "1/2026/11/<uuid>.jpg.thumb.webp"): not an original's key (those end in
 * the type's extension, IMAGE_KEY_PATTERN), and GET /images/<thumb key> serves it only while the
 * original's ImageAsset row records it.
 *
 * Making one never costs the upload: a file sharp cannot decode (corrupt, or more than
 * THUMBNAIL_MAX_INPUT_PIXELS pixels: a decompression bomb) gets no thumbnail, and the library
 * shows the original instead.
 */
import "server-only";

import sharp from "sharp";

import { IMAGE_KEY_PATTERN } from "./organise.schema";

/** Width of a thumbnail in pixels (narrower images keep their width). */
const THUMBNAIL_WIDTH = 320;
/** The most pixels sharp decodes for a thumbnail (about 8,000 × 6,000); more is refused. */
export const THUMBNAIL_MAX_INPUT_PIXELS = 50_000_000;
const THUMB_SUFFIX = ".thumb.webp";

// ─── Pure rules ──────────────────────────────────────────────────────────────────────────────

/** "<key>.thumb.webp": where an original's thumbnail is stored. */
export function thumbnailKey(key: string): string {
  if (!IMAGE_KEY_PATTERN.test(key)) throw new Error("Not an image key.");
  return `${key}${THUMB_SUFFIX}`;
}

/** The original's key a thumbnail key names, or null when `key` is no thumbnail key. */
export function originalKeyOfThumbnail(key: string): string | null {
  if (!key.endsWith(THUMB_SUFFIX)) return null;
  const original = key.slice(0, -THUMB_SUFFIX.length);
  return IMAGE_KEY_PATTERN.test(original) ? original : null;
}

/** Whether sharp may decode an image of this size (unknown sizes are left to sharp's own limit). */
export function withinThumbnailPixelLimit(width: number | null, height: number | null): boolean {
  return width === null || height === null || width * height <= THUMBNAIL_MAX_INPUT_PIXELS;
}

// ─── Making ──────────────────────────────────────────────────────────────────────────────────

type Thumbnail = { data: Uint8Array; width: number; height: number };

/** The thumbnail of an image's bytes, or null when sharp cannot make one (corrupt, too many pixels). */
export async function makeThumbnail(data: Uint8Array): Promise<Thumbnail | null> {
  try {
    const { data: out, info } = await sharp(data, {
      limitInputPixels: THUMBNAIL_MAX_INPUT_PIXELS,
      failOn: "error",
      pages: 1,
    })
      .rotate()
      .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(out), width: info.width, height: info.height };
  } catch {
    return null;
  }
}
