// GET /files/<key> – an uploaded document (a story's file element), always as a sandboxed download (public, cached for good: keys never change content)
import { routes } from "@/server/http/route";
import { uploadRoute } from "@/server/http/upload-routes";
import { findFile } from "@/server/publishing/editorial/files";
import { attachmentDisposition, downloadName, FILE_TYPES } from "@/server/publishing/editorial/files.schema";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes({
  GET: uploadRoute({
    what: "file",
    summary:
      "An uploaded document by its key (<account>/files/<yyyy>/<mm>/<uuid>.<ext>): always Content-Disposition attachment (the uploaded name as filename*), X-Content-Type-Options nosniff and Content-Security-Policy sandbox, with a long immutable Cache-Control and an ETag.",
    // Only recorded files: an image's key is not one. A download, never a page: a document a
    // browser could render (text that looks like HTML, a PDF with script) runs nothing on our origin.
    find: async (db, key) => {
      const file = await findFile(db, { key });
      if (!file) return null;
      return {
        id: file.id,
        key: file.key,
        contentType: file.mimeType.startsWith("text/") ? `${file.mimeType}; charset=utf-8` : file.mimeType,
        headers: {
          "Content-Disposition": attachmentDisposition(downloadName(file.fileName, FILE_TYPES[file.mimeType])),
        },
      };
    },
  }),
});
