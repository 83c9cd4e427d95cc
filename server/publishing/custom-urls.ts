/**
 * Custom URLs: paths of the publisher's site that are redirects or static pages rather than
 * stories or sections. Front ends ask for every path they do not know
 * (GET /api/v1/custom-urls/%2Fsome%2Fpath) and answer with a redirect or the page.
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";

/**
 * The path a request names: the client sends it URL-encoded as one segment ("%2Fold%2Fpage"),
 * but unencoded segments ("old/page") are taken too. Decoded once, with a leading "/".
 */
export function customUrlPath(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new AppError("BAD_REQUEST", "The path is not validly URL-encoded.", {
      details: [{ field: "params.path", issue: "invalid percent-encoding" }],
    });
  }
  return decoded.startsWith("/") ? decoded : `/${decoded}`;
}

export async function getCustomUrlPage(db: Db, args: { accountId: number; path: string }) {
  const candidates = [args.path];
  // "/old-page/" and "/old-page" name the same page.
  if (args.path.length > 1 && args.path.endsWith("/")) candidates.push(args.path.replace(/\/+$/, "") || "/");
  const rows = await db.customUrl.findMany({ where: { accountId: args.accountId, sourcePath: { in: candidates } } });
  const row = candidates.map((c) => rows.find((r) => r.sourcePath === c)).find(Boolean);
  if (!row) throw new AppError("NOT_FOUND", "No custom URL at this path.");
  const metadata = row.metadata && typeof row.metadata === "object" && !Array.isArray(row.metadata) ? row.metadata : {};
  return {
    page: {
      id: row.id,
      type: row.type,
      "source-path": row.sourcePath,
      "status-code": row.statusCode,
      "destination-path": row.destinationPath,
      title: row.title,
      content: row.content,
      metadata,
      "created-at": row.createdAt.getTime(),
      "updated-at": row.updatedAt.getTime(),
    },
  };
}
