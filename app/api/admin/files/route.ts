// POST /api/admin/files – upload a document for a story's file element (signed-in EDITOR or OWNER; multipart field "file")
// DELETE /api/admin/files?key=<key> – delete one of the account's documents (EDITOR or OWNER)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { readUploadedFileWithName } from "@/server/http/multipart";
import { created, noContent } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { deleteFile, storeFile, uploadedFileToWire } from "@/server/publishing/editorial/files";
import { ZFileKey } from "@/server/publishing/editorial/files.schema";
import { imageStorageFromEnv } from "@/server/storage/image-storage";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "admin",
      roles: ["EDITOR"],
      rawBody: true,
      summary:
        "Upload a document for a story's file element as multipart/form-data field `file` (PDF, Word .docx, Excel .xlsx, PowerPoint .pptx, plain text or CSV, judged by its bytes; at most FILE_UPLOAD_MAX_BYTES): 201 {key, url, file-name, content-type, bytes}. 415 for any other content, 413 when too large.",
    },
    async ({ req, db, admin }) => {
      const env = getEnv();
      const { data, name } = await readUploadedFileWithName(req, {
        field: "file",
        maxBytes: env.FILE_UPLOAD_MAX_BYTES,
      });
      const stored = await storeFile(db, {
        actor: admin,
        data,
        fileName: name,
        storage: imageStorageFromEnv(env),
        maxBytes: env.FILE_UPLOAD_MAX_BYTES,
        now: new Date(),
      });
      return created(uploadedFileToWire(stored, env), { headers: { "Cache-Control": "no-store" } });
    },
  ),
  DELETE: apiRoute(
    {
      auth: "admin",
      roles: ["EDITOR"],
      query: z.object({ key: ZFileKey }),
      summary:
        "Delete one of the account's uploaded documents by its key: 204; its record goes, then its bytes, and GET /files/<key> is 404 from then on. 409 naming the stories while a story still links to it; 404 for a key the account has no file under.",
    },
    async ({ db, admin, query }) => {
      await deleteFile(db, { actor: admin, key: query.key, storage: imageStorageFromEnv(getEnv()), now: new Date() });
      return noContent();
    },
  ),
});
