/**
 * Erasure's log steps: the mail outbox (mails to the reader's addresses deleted, unsent ones too;
 * mails to others that name them scrubbed), webhooks' logs, import records and reports, and the
 * audit log and job queue. Entries stay (an audit entry is the newsroom's record); only what names
 * the reader goes (./scrub.ts).
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { OTHER_LOGS, OUTBOX, scrubTables, WEBHOOK_LOGS } from "./scrub";
import type { ErasureSubject } from "./subject";

export async function clearOutbox(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const emails = [...s.needles.emails];
  if (emails.length)
    await tx.outgoingEmail.deleteMany({
      where: { accountId: s.accountId, OR: emails.map((e) => ({ to: { equals: e, mode: "insensitive" as const } })) },
    });
  await scrubTables(tx, OUTBOX, s.accountId, s.needles);
}

export async function scrubWebhookLogs(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await scrubTables(tx, WEBHOOK_LOGS, s.accountId, s.needles);
}

/**
 * What imports remember of the reader: the record that maps the source's member to them (its
 * source id is often their e-mail) and any record whose source ids name them go; reports are scrubbed.
 */
export async function clearImportRecords(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  const named = [...s.needles.emails, ...s.needles.names].flatMap((n) => [
    { sourceId: { contains: n, mode: "insensitive" as const } },
    { sourceParentId: { contains: n, mode: "insensitive" as const } },
  ]);
  await tx.importRecord.deleteMany({
    where: { accountId: s.accountId, OR: [{ kind: "member", targetId: String(s.memberId) }, ...named] },
  });
}

export async function scrubOtherLogs(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await scrubTables(tx, OTHER_LOGS, s.accountId, s.needles);
}
