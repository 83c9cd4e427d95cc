/**
 * The account's time zone (`accounts.time_zone`, Settings → Site): the zone its staff read every
 * time in, its date fields' days are on, and its documents for readers (invoices) name.
 */
import "server-only";

import type { Db } from "../db/client";

/** The account's IANA zone; "UTC" for an account that is not there. */
export async function getAccountTimeZone(db: Db, accountId: number): Promise<string> {
  const account = await db.account.findUnique({ where: { id: accountId }, select: { timeZone: true } });
  return account?.timeZone ?? "UTC";
}
