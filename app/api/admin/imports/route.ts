// POST /api/admin/imports?source=<name>&name=<file name> – upload an export to import (OWNER; the body is the file's bytes)
import { getEnv } from "@/env.js";
import { created } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { ZImportUploadCreated, ZImportUploadQuery } from "@/server/imports/dashboard/dashboard.schema";
import { storeImportUpload } from "@/server/imports/dashboard/uploads";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "admin",
      roles: ["OWNER"],
      rawBody: true,
      query: ZImportUploadQuery,
      summary:
        "Upload another system's export for the dashboard's Import page: the request body is the file's bytes (streamed to disk, at most IMPORT_UPLOAD_MAX_BYTES), `source` one of the import sources, `name` the file's name; the command line's options, each for the sources its flag is for (docs/migration.md): `site`, `announce` (1: send the webhooks and e-mails live writes send), `ghost-url` (ghost), `as-of` (subscriptions, ghost-members, newsletter-csv; ISO 8601, not in the future), `newsletter` (newsletter-csv; a slug). Queues its dry run: 201 {id, source, file-name, digest, bytes, state}. 400 for an unknown source, an option the source does not take or an empty body, 413 when too large, 415 for a ZIP archive or a binary file, 409 while another import of the account is under way. A file the source cannot read is taken, and its dry run fails saying why.",
    },
    async ({ req, db, admin, query }) => {
      const env = getEnv();
      const length = req.headers.get("content-length");
      const upload = await storeImportUpload(db, {
        actor: admin,
        source: query.source,
        fileName: query.name,
        options: {
          site: query.site,
          announce: query.announce ?? false,
          ghostUrl: query["ghost-url"],
          asOf: query["as-of"],
          newsletter: query.newsletter,
        },
        body: req.body,
        contentLength: length === null || !/^\d+$/.test(length) ? null : Number(length),
        maxBytes: env.IMPORT_UPLOAD_MAX_BYTES,
        dir: env.IMPORT_DIR,
        now: new Date(),
      });
      return created(
        ZImportUploadCreated.parse({
          id: upload.id,
          source: upload.source,
          "file-name": upload.fileName,
          digest: upload.digest,
          bytes: upload.bytes,
          state: "queued",
        }),
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  ),
});
