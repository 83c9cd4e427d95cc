/**
 * The erasure's steps for what the other privacy parts keep about a reader: their data exports
 * (archives and rows), their consent records, and their name and e-mail on illegal-content notices
 * and appeals (the notices stay, without them, for the transparency report).
 */
import "server-only";

import type { TransactionClient } from "../../db/client";
import { eraseConsentRecords } from "../consent/consent";
import { deleteMemberExports } from "../exports/cleanup";
import { eraseDsaPersonalData } from "./dsa-notices";
import type { ErasureSubject } from "./subject";

export async function removeExports(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await deleteMemberExports(tx, s.accountId, s.memberId, ...(s.storage ? [s.storage] : []));
}

export async function removeConsentRecords(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await eraseConsentRecords(tx, s.accountId, s.memberId);
}

export async function stripNotices(tx: TransactionClient, s: ErasureSubject): Promise<void> {
  await eraseDsaPersonalData(tx, s.accountId, s.memberId, null);
  for (const email of s.needles.emails) await eraseDsaPersonalData(tx, s.accountId, null, email);
}
