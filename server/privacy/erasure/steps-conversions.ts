/**
 * The erasure's step for which stories convert (docs/subscriptions.md "Which stories convert"):
 * the reader's links from browser ids to the member are deleted, and the wall hits of a browser
 * id that no other member shares get a new random id, so the stories' counts stay and nothing
 * leads back to the reader (a shared device's hits stay as they are: they are the others' too).
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import type { ErasureSubject } from "./subject";

export async function anonymiseReaderIds(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await tx.$executeRaw`
    WITH gone AS (
      SELECT l.reader_id, 'erased:' || gen_random_uuid()::text AS new_id FROM conversion_reader_links l
      WHERE l.account_id = ${s.accountId} AND l.member_id = ${s.memberId}
        AND NOT EXISTS (SELECT 1 FROM conversion_reader_links o
          WHERE o.account_id = l.account_id AND o.reader_id = l.reader_id AND o.member_id <> l.member_id)
    )
    UPDATE conversion_wall_hits h SET reader_id = gone.new_id FROM gone
    WHERE h.account_id = ${s.accountId} AND h.reader_id = gone.reader_id`;
  await tx.conversionReaderLink.deleteMany({ where: { accountId: s.accountId, memberId: s.memberId } });
}
