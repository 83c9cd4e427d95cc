// GET /images/<key> – an uploaded image (public, cached for good: keys never change content)
import fs from "node:fs";
import { Readable } from "node:stream";

import { z } from "zod";

import { getEnv } from "@/env.js";
import { AppError } from "@/server/errors";
import { matchesEtag } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { findImageFile } from "@/server/publishing/editorial/images";

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
        "An uploaded image by its key (<account>/<yyyy>/<mm>/<uuid>.<ext>), with a long immutable Cache-Control and an ETag.",
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
      const image = await findImageFile(db, { uploadDir: getEnv().UPLOAD_DIR, key: params.key.join("/") });
      if (!image) throw new AppError("NOT_FOUND", "No image has this key.");

      const etag = `"${image.id}"`;
      const headers = {
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: etag,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      };
      if (matchesEtag(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
      const body = Readable.toWeb(
        fs.createReadStream(/*turbopackIgnore: true*/ image.file),
      ) as ReadableStream<Uint8Array>;
      return new Response(body, {
        status: 200,
        headers: { ...headers, "Content-Type": image.mimeType, "Content-Length": String(image.bytes) },
      });
    },
  ),
});
