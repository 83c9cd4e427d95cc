/**
 * A reader's personal data in the DSA notices and appeals (docs/privacy.md, "Illegal-content
 * notices"), for the erasure of their data: their name and e-mail address as a notifier (matched
 * by member or by address), the address and language of their appeal links, and the member ids
 * that name them as notifier, author or appellant. The rows stay with their category, decision,
 * dates and outcome, so the transparency report's counts are unchanged; a link of theirs still
 * opens (its hash stays) but no mail can follow it. Idempotent: running it again changes nothing.
 */
import "server-only";

import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";

export async function eraseDsaPersonalData(
  db: Db,
  accountId: number,
  memberId: number | null,
  email: string | null,
): Promise<{ notices: number; appeals: number }> {
  const address = email?.trim().toLowerCase() || null;
  return withTransaction(db, async (tx) => {
    const asNotifier = [
      ...(memberId !== null ? [{ notifierMemberId: memberId }] : []),
      ...(address ? [{ notifierEmail: { equals: address, mode: "insensitive" as const } }] : []),
    ];
    const notified = asNotifier.length
      ? await tx.dsaNotice.updateMany({
          where: { accountId, OR: asNotifier },
          data: { notifierName: null, notifierEmail: null, notifierLocale: null, notifierMemberId: null },
        })
      : { count: 0 };
    const authored =
      memberId !== null
        ? await tx.dsaNotice.updateMany({
            where: { accountId, authorMemberId: memberId },
            data: { authorMemberId: null },
          })
        : { count: 0 };
    const asParty = [
      ...(memberId !== null ? [{ memberId }] : []),
      ...(address ? [{ email: { equals: address, mode: "insensitive" as const } }] : []),
    ];
    const appeals = asParty.length
      ? await tx.dsaAppeal.updateMany({
          where: { accountId, OR: asParty },
          data: { email: null, locale: null, memberId: null },
        })
      : { count: 0 };
    return { notices: notified.count + authored.count, appeals: appeals.count };
  });
}
