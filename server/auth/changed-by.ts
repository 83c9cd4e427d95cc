/** Who made a change, as content and settings events carry it ("changed-by"). */
import type { Db } from "../db/client";
import type { Actor } from "./actor";

/** The staff member behind `actor` (id, name, e-mail), or the system by name. */
export async function changedBy(
  db: Db,
  actor: Actor,
): Promise<{ id: string | null; name: string | null; email: string | null }> {
  if (actor.kind === "system") return { id: null, name: `Masthead (${actor.name})`, email: null };
  const user = await db.adminUser.findFirst({
    where: { id: actor.id, accountId: actor.accountId },
    select: { id: true, name: true, email: true },
  });
  return user ?? { id: actor.id, name: null, email: null };
}
