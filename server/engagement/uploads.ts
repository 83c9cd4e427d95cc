/**
 * Readers' image uploads, for images in comments (docs/engagement.md, "Uploads").
 *
 * - A signed-in reader only (publisher JWT → their member); guests may not upload (an upload is
 *   worth more to an abuser than a comment, and would need a captcha of its own).
 * - The same checks and storage as the dashboard's uploads (server/publishing/editorial/images.ts:
 *   inspectImage, keepImage): JPEG, PNG, WebP or GIF by their magic bytes (SVG, HTML and anything
 *   else 415), at most READER_UPLOAD.maxBytes (413), stored on the configured storage (disk or S3)
 *   and recorded as an ImageAsset of the account, with the member as its uploader.
 * - Dimensions: at most READER_UPLOAD.maxSide pixels a side and maxPixels in all (a small file
 *   that decodes into a huge bitmap is refused, 422).
 * - Served by GET /images/<key> with the sniffed Content-Type, `nosniff` and a sandboxing CSP; its
 *   URL is one that comment image ops accept (comments.ts isMastheadImageUrl).
 */
import "server-only";

import type { Env } from "../../env.js";
import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { findOrCreateJwtMember } from "../members/identities";
import { inspectImage, keepImage } from "../publishing/editorial/images";
import { publicImageUrl, type ImageStorage } from "../storage/image-storage";
import { assertNotBanned } from "./moderation/bans/bans";

export const READER_UPLOAD = {
  /** Bytes of one image. */
  maxBytes: 5 * 1024 * 1024,
  /** Pixels on the longer side. */
  maxSide: 8_000,
  /** Pixels in all (width × height). */
  maxPixels: 40_000_000,
};

type TReaderUpload = { url: string; width: number; height: number };

/** Whether an image of these dimensions may be kept from a reader. */
export function saneDimensions(width: number | null, height: number | null): boolean {
  if (!width || !height || width < 1 || height < 1) return false;
  return width <= READER_UPLOAD.maxSide && height <= READER_UPLOAD.maxSide && width * height <= READER_UPLOAD.maxPixels;
}

export async function uploadReaderImage(
  db: Db,
  args: {
    accountId: number;
    user: ApiUser;
    data: Uint8Array;
    storage: ImageStorage;
    env: Pick<Env, "APP_URL" | "IMAGE_PUBLIC_BASE_URL">;
    now: Date;
  },
): Promise<TReaderUpload> {
  const image = inspectImage(args.data, READER_UPLOAD.maxBytes);
  if (!saneDimensions(image.width, image.height)) {
    throw new AppError(
      "UNPROCESSABLE",
      `The image must be at most ${READER_UPLOAD.maxSide} pixels a side and ${READER_UPLOAD.maxPixels / 1_000_000} megapixels.`,
      { details: [{ field: "body.file", issue: `is ${image.width ?? "?"}×${image.height ?? "?"} pixels` }] },
    );
  }
  const member = await findOrCreateJwtMember(db, { accountId: args.accountId, user: args.user, now: args.now });
  // A ban covers every way a reader writes, uploads too (bans.ts): 403 before anything is kept.
  await assertNotBanned(db, { accountId: args.accountId, memberId: member.id, now: args.now });
  const stored = await keepImage(db, {
    accountId: args.accountId,
    data: args.data,
    image,
    storage: args.storage,
    now: args.now,
    uploadedBy: { memberId: member.id },
  });
  return { url: publicImageUrl(stored.key, args.env), width: stored.width!, height: stored.height! };
}
