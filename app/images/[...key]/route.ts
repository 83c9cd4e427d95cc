// GET /images/<key> – an uploaded image from the image storage, disk or S3 (public, cached for good: keys never change content)
import { routes } from "@/server/http/route";
import { uploadRoute } from "@/server/http/upload-routes";
import { findServedImage } from "@/server/publishing/editorial/images";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: uploadRoute({
    what: "image",
    summary:
      "An uploaded image by its key (<account>/<yyyy>/<mm>/<uuid>.<ext>), or its thumbnail (<key>.thumb.webp: 320 px WebP), with a long immutable Cache-Control and an ETag.",
    // A recorded image, or a recorded image's thumbnail ("<key>.thumb.webp").
    find: async (db, key) => {
      const image = await findServedImage(db, { key });
      return image && { id: image.id, key: image.key, contentType: image.mimeType };
    },
  }),
});
