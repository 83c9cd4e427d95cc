/**
 * Tags as the content API reads them: GET /api/v1/tags/<slug> → {tags:[{id, name,
 * meta-description, slug}]} (a list, as the original API answers, of the one tag with that slug).
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import { tagToWire } from "./story-view";

export async function getTagBySlug(db: Db, args: { accountId: number; slug: string }) {
  const tag = await db.tag.findUnique({ where: { accountId_slug: { accountId: args.accountId, slug: args.slug } } });
  if (!tag) throw new AppError("NOT_FOUND", "No tag with this slug.");
  return { tags: [tagToWire(tag)] };
}
