// POST /api/admin/images – upload an image from the dashboard (signed-in EDITOR or OWNER; multipart field "file")
import { getEnv } from "@/env.js";
import { readUploadedFile } from "@/server/http/multipart";
import { created } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { storeImage, uploadedImageToWire } from "@/server/publishing/editorial/images";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "admin",
      roles: ["EDITOR"],
      rawBody: true,
      summary:
        "Upload an image as multipart/form-data field `file` (JPEG, PNG, WebP or GIF, at most UPLOAD_MAX_BYTES): 201 {key, url, width, height, mime-type}.",
    },
    async ({ req, db, admin }) => {
      const env = getEnv();
      const data = await readUploadedFile(req, { field: "file", maxBytes: env.UPLOAD_MAX_BYTES });
      const stored = await storeImage(db, {
        actor: admin,
        data,
        uploadDir: env.UPLOAD_DIR,
        maxBytes: env.UPLOAD_MAX_BYTES,
        now: new Date(),
      });
      return created(uploadedImageToWire(stored, env.APP_URL), { headers: { "Cache-Control": "no-store" } });
    },
  ),
});
