// GET /images/<key> – an uploaded image from the image storage, disk or S3 (public, cached for good: keys never change content)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { AppError } from "@/server/errors";
import { matchesEtag } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { findServedImage } from "@/server/publishing/editorial/images";
import { imageStorageFromEnv } from "@/server/storage/image-storage";

export const dynamic = "force-dynamic";

/** One path segment of a key: no separators, no encodings, nothing a file system treats specially. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: apiRoute(
    {
      auth: "public",
      produces: "any",
      params: z.object({ key: z.array(z.string()).min(1).max(8) }),
      summary:
        "An uploaded image by its key (<account>/<yyyy>/<mm>/<uuid>.<ext>), or its thumbnail (<key>.thumb.webp: 320 px WebP), with a long immutable Cache-Control and an ETag.",
    },
    async ({ req, db, url, params }) => {
      // Keys never need escaping: anything encoded ("%2F", "%2e%2e") or dotted is an attempt to leave the folder.
      if (
        url.pathname.includes("%") ||
        !params.key.every((segment) => SEGMENT.test(segment) && !segment.includes(".."))
      ) {
        throw new AppError("BAD_REQUEST", "That is not an image key.", {
          details: [{ field: "params.key", issue: "is not an image key" }],
        });
      }
      // Only recorded keys are served (a file or object placed in the storage by hand is not), and
      // a recorded image's thumbnail ("<key>.thumb.webp").
      const image = await findServedImage(db, { key: params.key.join("/") });
      if (!image) throw new AppError("NOT_FOUND", "No image has this key.");

      const etag = `"${image.id}"`;
      const headers = {
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: etag,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      };
      // A key's bytes never change, so a matching ETag needs no trip to the storage.
      if (matchesEtag(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
      const object = await imageStorageFromEnv(getEnv()).get(image.key);
      if (!object) throw new AppError("NOT_FOUND", "No image has this key.");
      return new Response(object.body, {
        status: 200,
        headers: { ...headers, "Content-Type": image.mimeType, "Content-Length": String(object.size) },
      });
    },
  ),
});
