/**
 * The newsletter the demo paywall's registration wall offers (docs/subscriptions.md "Registration
 * wall"): the account's first newsletter a new reader may join (not archived, not for paying
 * subscribers only), by name; none: the wall shows no newsletter box.
 */
import "server-only";

import type { Db } from "../db/client";

export async function wallNewsletter(db: Db, accountId: number): Promise<{ slug: string; name: string } | null> {
  return db.newsletter.findFirst({
    where: { accountId, archivedAt: null, audience: { not: "PAYING" } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: { slug: true, name: true },
  });
}
