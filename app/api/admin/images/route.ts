// POST /api/admin/images – upload an image from the dashboard (signed-in EDITOR, CONTRIBUTOR or OWNER; multipart field "file")
// DELETE /api/admin/images?key=<key> – delete one of the account's images (EDITOR or OWNER)
import { z } from "zod";

import { getEnv } from "@/env.js";
import { readUploadedFileWithName } from "@/server/http/multipart";
import { created, noContent } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { storeImage, uploadedImageToWire } from "@/server/publishing/editorial/images";
import { deleteMedia } from "@/server/publishing/editorial/media-library";
import { ZImageKey } from "@/server/publishing/editorial/organise.schema";
import { imageStorageFromEnv } from "@/server/storage/image-storage";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "admin",
      // Contributors add images to their stories (hero, image elements, dropped into the text).
      roles: ["EDITOR", "CONTRIBUTOR"],
      rawBody: true,
      summary:
        "Upload an image as multipart/form-data field `file` (JPEG, PNG, WebP or GIF, at most UPLOAD_MAX_BYTES): 201 {key, url, width, height, mime-type}. A thumbnail (<key>.thumb.webp) is made next to it.",
    },
    async ({ req, db, admin }) => {
      const env = getEnv();
      const { data, name } = await readUploadedFileWithName(req, { field: "file", maxBytes: env.UPLOAD_MAX_BYTES });
      const stored = await storeImage(db, {
        actor: admin,
        data,
        storage: imageStorageFromEnv(env),
        maxBytes: env.UPLOAD_MAX_BYTES,
        now: new Date(),
        fileName: name,
      });
      return created(uploadedImageToWire(stored, env), { headers: { "Cache-Control": "no-store" } });
    },
  ),
  DELETE: apiRoute(
    {
      auth: "admin",
      roles: ["EDITOR"],
      query: z.object({ key: ZImageKey }),
      summary:
        "Delete one of the account's uploads by its key: 204; its record goes, then its bytes and thumbnail (disk or bucket), and GET /images/<key> is 404 from then on. 409 naming where it is used while a story, author, collection, entity or the config still shows it.",
    },
    async ({ db, admin, query }) => {
      await deleteMedia(db, { actor: admin, key: query.key, storage: imageStorageFromEnv(getEnv()), now: new Date() });
      return noContent();
    },
  ),
});
