// GET /files/<key> – an uploaded document (a story's file element), always as a sandboxed download (public, cached for good: keys never change content)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { AppError } from "@/server/errors";
import { matchesEtag } from "@/server/http/content-cache";
import { apiRoute, routes } from "@/server/http/route";
import { findFile } from "@/server/publishing/editorial/files";
import { attachmentDisposition, downloadName, FILE_TYPES } from "@/server/publishing/editorial/files.schema";
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
        "An uploaded document by its key (<account>/files/<yyyy>/<mm>/<uuid>.<ext>): always Content-Disposition attachment (the uploaded name as filename*), X-Content-Type-Options nosniff and Content-Security-Policy sandbox, with a long immutable Cache-Control and an ETag.",
    },
    async ({ req, db, url, params }) => {
      // Keys never need escaping: anything encoded ("%2F", "%2e%2e") or dotted is an attempt to leave the folder.
      if (
        url.pathname.includes("%") ||
        !params.key.every((segment) => SEGMENT.test(segment) && !segment.includes(".."))
      ) {
        throw new AppError("BAD_REQUEST", "That is not a file key.", {
          details: [{ field: "params.key", issue: "is not a file key" }],
        });
      }
      // Only recorded keys are served: an image's key, or bytes placed in the storage by hand, are not.
      const file = await findFile(db, { key: params.key.join("/") });
      if (!file) throw new AppError("NOT_FOUND", "No file has this key.");

      const etag = `"${file.id}"`;
      // A download, never a page: a document a browser could render (text that looks like HTML, a
      // PDF with script) runs nothing on our origin, whatever it holds.
      const headers = {
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: etag,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Content-Disposition": attachmentDisposition(downloadName(file.fileName, FILE_TYPES[file.mimeType])),
      };
      if (matchesEtag(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
      const object = await imageStorageFromEnv(getEnv()).get(file.key);
      if (!object) throw new AppError("NOT_FOUND", "No file has this key.");
      const contentType = file.mimeType.startsWith("text/") ? `${file.mimeType}; charset=utf-8` : file.mimeType;
      return new Response(object.body, {
        status: 200,
        headers: { ...headers, "Content-Type": contentType, "Content-Length": String(object.size) },
      });
    },
  ),
});
