// POST /api/v1/accounts/{account_id}/uploads?jwt= – a signed-in reader uploads an image for a comment (multipart field "file")
import { z } from "zod";

import { getEnv } from "@/env.js";
import { READER_UPLOAD, uploadReaderImage } from "@/server/engagement/uploads";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { readUploadedFile } from "@/server/http/multipart";
import { created } from "@/server/http/respond";
import { apiRoute, routes } from "@/server/http/route";
import { imageStorageFromEnv } from "@/server/storage/image-storage";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      auth: "publisherJwt+user",
      params: z.object({ account_id: z.string() }),
      query: z.object({ jwt: z.string().optional() }),
      rawBody: true,
      cors: true,
      rateLimit: ENGAGEMENT_RATE_LIMITS.upload,
      summary: `Upload an image for a comment as the jwt's reader (jwt in the query; 401 without, guests may not upload): multipart/form-data field \`file\`, a JPEG, PNG, WebP or GIF (by its bytes; anything else 415) of at most ${READER_UPLOAD.maxBytes / 1024 / 1024} MiB (413) and ${READER_UPLOAD.maxSide} pixels a side (422) → 201 {url, width, height}; put the url in an image op ({insert: {image: url}}).`,
    },
    async ({ req, db, account, user }) => {
      const env = getEnv();
      const data = await readUploadedFile(req, { field: "file", maxBytes: READER_UPLOAD.maxBytes });
      const upload = await uploadReaderImage(db, {
        accountId: account.id,
        user,
        data,
        storage: imageStorageFromEnv(env),
        env,
        now: new Date(),
      });
      return created(upload, { headers: { "Cache-Control": "no-store" } });
    },
  ),
});
