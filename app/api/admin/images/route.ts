// POST /api/admin/images – upload an image from the dashboard (signed-in EDITOR or OWNER; multipart field "file")
import { getEnv } from "@/env.js";
import { hasAnyRole } from "@/server/auth/roles";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { apiRoute, readBodyBytes, routes } from "@/server/http/route";
import { storeImage } from "@/server/publishing/editorial/images";
import type { TUploadedImage } from "@/server/publishing/editorial/organise.schema";

export const dynamic = "force-dynamic";

/** Room for the multipart envelope (boundaries, part headers) around the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  POST: apiRoute(
    {
      // Authenticated below with the dashboard session (next-auth cookie), which apiRoute's API schemes do not cover.
      auth: "public",
      summary: "Dashboard only (admin session cookie, EDITOR role): upload an image as multipart/form-data field `file`. 201 {key, url, width, height, mime-type}.",
    },
    async ({ req }) => {
      // Loaded on use: next-auth needs the Next.js runtime, which tools that read route files (npm run docs:api) lack.
      const { getAdminSession } = await import("@/server/auth/next-auth");
      const session = await getAdminSession();
      if (!session) throw new AppError("UNAUTHORIZED", "Sign in to the dashboard to upload images.");
      if (!hasAnyRole(session.user.roles, ["EDITOR"])) throw new AppError("FORBIDDEN", "Your roles do not allow uploading images.");

      const env = getEnv();
      const contentType = req.headers.get("content-type") ?? "";
      if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new AppError("UNSUPPORTED_MEDIA_TYPE", 'Send the image as multipart/form-data, in the field "file".');
      const body = await readBodyBytes(req, env.UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES, () => new AppError("PAYLOAD_TOO_LARGE", `Images may be at most ${env.UPLOAD_MAX_BYTES} bytes.`));

      let form: FormData;
      try {
        form = await new Response(body, { headers: { "Content-Type": contentType } }).formData();
      } catch {
        throw new AppError("BAD_REQUEST", "The multipart body could not be read.", { details: [{ field: "body", issue: "malformed multipart/form-data" }] });
      }
      const file = form.get("file");
      if (!file || typeof file === "string") throw new AppError("BAD_REQUEST", 'Attach the image in the field "file".', { details: [{ field: "body.file", issue: "is required (a file)" }] });

      const stored = await storeImage(await getDb(), {
        actor: { id: session.user.id, accountId: session.user.accountId },
        data: new Uint8Array(await file.arrayBuffer()),
        uploadDir: env.UPLOAD_DIR,
        maxBytes: env.UPLOAD_MAX_BYTES,
        now: new Date(),
      });
      const result: TUploadedImage = {
        key: stored.key,
        url: new URL(`/images/${stored.key}`, env.APP_URL).toString(),
        width: stored.width,
        height: stored.height,
        "mime-type": stored.mimeType,
      };
      return Response.json(result, { status: 201, headers: { "Cache-Control": "no-store" } });
    },
  ),
});
