/**
 * GET of an upload by its key (/images/<key…>, /files/<key…>): one route for both, so both refuse
 * the same path tricks and answer with the same headers.
 * - The key comes from the catch-all segments: anything encoded ("%2F", "%2e%2e") or dotted is an
 *   attempt to leave the folder (400). Only keys the database records are served (404 otherwise):
 *   bytes placed in the storage by hand are not.
 * - A key's bytes never change: a long immutable Cache-Control, and an ETag (the record's id) that
 *   answers 304 without a trip to the storage.
 * - nosniff and a sandbox CSP: whatever the bytes hold, nothing runs on our origin.
 */
import { z } from "zod";

import { getEnv } from "@/env.js";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { matchesEtag } from "@/server/http/content-cache";
import { imageStorageFromEnv } from "@/server/storage/image-storage";

import { apiRoute } from "./route";

/** One path segment of a key: no separators, no encodings, nothing a file system treats specially. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/;

/** What the route serves for a key: the record's id (the ETag), the storage key, and its headers. */
type ServedUpload = { id: string; key: string; contentType: string; headers?: Record<string, string> };

export function uploadRoute(options: {
  /** "image" or "file", for the error messages. */
  what: string;
  summary: string;
  find: (db: Db, key: string) => Promise<ServedUpload | null>;
}) {
  const { what } = options;
  return apiRoute(
    {
      auth: "public",
      produces: "any",
      params: z.object({ key: z.array(z.string()).min(1).max(8) }),
      summary: options.summary,
    },
    async ({ req, db, url, params }) => {
      if (
        url.pathname.includes("%") ||
        !params.key.every((segment) => SEGMENT.test(segment) && !segment.includes(".."))
      ) {
        const notAKey = `is not ${what === "image" ? "an" : "a"} ${what} key`;
        throw new AppError("BAD_REQUEST", `That ${notAKey}.`, { details: [{ field: "params.key", issue: notAKey }] });
      }
      const upload = await options.find(db, params.key.join("/"));
      if (!upload) throw new AppError("NOT_FOUND", `No ${what} has this key.`);

      const etag = `"${upload.id}"`;
      const headers = {
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: etag,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        ...upload.headers,
      };
      if (matchesEtag(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
      const object = await imageStorageFromEnv(getEnv()).get(upload.key);
      if (!object) throw new AppError("NOT_FOUND", `No ${what} has this key.`);
      return new Response(object.body, {
        status: 200,
        headers: { ...headers, "Content-Type": upload.contentType, "Content-Length": String(object.size) },
      });
    },
  );
}
