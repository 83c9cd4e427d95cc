/**
 * Consent records (docs/privacy.md "Consent and retention"): every consent a reader gives or
 * withdraws (a newsletter, a kind of mail about their comments, a list an import brought) is one
 * append-only row of `consent_records` (a trigger refuses changes): who, which purpose, given or
 * withdrawn, when (UTC), how (the channel) and the wording shown, in the locale shown. A wording is
 * stored once in `consent_texts`, keyed by the SHA-256 of its text, and records point at it.
 *
 * Writers call `recordConsent` inside the transaction that changes the consent, so the record and
 * the change commit together. Erasure deletes a reader's records (`eraseConsentRecords`); the
 * shared wordings stay (they hold no reader's data).
 */
import "server-only";

import { createHash } from "node:crypto";

import { z } from "zod";

import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { parseInput } from "../../validation";
import { ZConsentChannel, ZConsentPurpose, type TConsentChannel, type TConsentHistoryEntry } from "./consent.schema";

/** The wording shown to the reader, in the locale it was shown in. */
export type ConsentWording = { locale: string; text: string };

const ZRecordInput = z.object({
  accountId: z.number().int().positive(),
  memberId: z.number().int().positive(),
  purpose: ZConsentPurpose,
  given: z.boolean(),
  channel: ZConsentChannel,
  wording: z.object({ locale: z.string().min(2).max(35), text: z.string().min(1).max(20_000) }).nullish(),
  memberConsentId: z.number().int().positive().nullish(),
  now: z.date(),
});

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The id of a wording's row, inserted when it is new. `ON CONFLICT DO NOTHING` never aborts the
 * caller's transaction: a concurrent writer of the same wording waits for the other's commit,
 * then finds its row.
 */
async function textIdOf(db: Db, text: string): Promise<number> {
  const digest = sha256Hex(text);
  await db.$executeRaw`INSERT INTO consent_texts (sha256, text) VALUES (${digest}, ${text}) ON CONFLICT (sha256) DO NOTHING`;
  const row = await db.consentText.findUniqueOrThrow({ where: { sha256: digest }, select: { id: true } });
  return row.id;
}

/** Record one consent given or withdrawn, in the caller's transaction. */
export async function recordConsent(
  db: Db,
  input: {
    accountId: number;
    memberId: number;
    purpose: string;
    given: boolean;
    channel: TConsentChannel;
    wording?: ConsentWording | null;
    memberConsentId?: number | null;
    now: Date;
  },
): Promise<void> {
  const args = parseInput(ZRecordInput, input);
  const textId = args.wording ? await textIdOf(db, args.wording.text) : null;
  await db.consentRecord.create({
    data: {
      accountId: args.accountId,
      memberId: args.memberId,
      purpose: args.purpose,
      given: args.given,
      channel: args.channel,
      textId,
      locale: args.wording?.locale ?? null,
      memberConsentId: args.memberConsentId ?? null,
      occurredAt: args.now,
    },
  });
}

const NOTIFICATION_LABELS = new Map([
  ["replies", "Mails about replies to their comments"],
  ["mentions", "Mails about mentions of them"],
  ["decisions", "Mails about moderators' decisions on their comments"],
]);

/** What each purpose names, for staff. */
async function purposeLabels(db: Db, accountId: number, purposes: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(purposes.filter((p) => p.startsWith("newsletter:")).map((p) => Number(p.slice(11))))];
  const newsletters = ids.length
    ? await db.newsletter.findMany({ where: { accountId, id: { in: ids } }, select: { id: true, name: true } })
    : [];
  const names = new Map(newsletters.map((n) => [`newsletter:${n.id}`, `Newsletter “${n.name}”`]));
  const labels = new Map<string, string>();
  for (const purpose of purposes) {
    const [kind = "", rest = ""] = purpose.split(/:(.*)/s, 2);
    if (kind === "newsletter") labels.set(purpose, names.get(purpose) ?? `Newsletter #${rest} (deleted)`);
    else if (kind === "notification") labels.set(purpose, NOTIFICATION_LABELS.get(rest) ?? purpose);
    else if (kind === "list") labels.set(purpose, `Imported list “${rest}”`);
    else labels.set(purpose, purpose);
  }
  return labels;
}

/**
 * A reader's consent history, oldest first, with the wording of each record (what the data export
 * includes, and what the dashboard's reader page shows). NOT_FOUND for a member of another account.
 */
export async function consentHistory(db: Db, accountId: number, memberId: number): Promise<TConsentHistoryEntry[]> {
  const member = await db.member.findFirst({ where: { id: memberId, accountId }, select: { id: true } });
  if (!member) throw new AppError("NOT_FOUND", "No such reader.");
  const rows = await db.consentRecord.findMany({
    where: { accountId, memberId },
    orderBy: [{ occurredAt: "asc" }, { id: "asc" }],
    include: {
      text: { select: { text: true, sha256: true } },
      memberConsent: { select: { list: true, source: true } },
    },
  });
  const labels = await purposeLabels(
    db,
    accountId,
    rows.map((r) => r.purpose),
  );
  return rows.map((r) => ({
    id: r.id,
    purpose: r.purpose,
    purposeLabel: labels.get(r.purpose) ?? r.purpose,
    given: r.given,
    channel: r.channel,
    occurredAt: r.occurredAt,
    locale: r.locale,
    text: r.text?.text ?? null,
    textSha256: r.text?.sha256 ?? null,
    importedConsent: r.memberConsent,
  }));
}

/**
 * Erasure: delete the reader's consent records (and the imported consents they relate to, in
 * member_consents). Idempotent: a second call removes nothing. The shared wordings stay.
 */
export async function eraseConsentRecords(
  db: Db,
  accountId: number,
  memberId: number,
): Promise<{ records: number; importedConsents: number }> {
  const records = await db.consentRecord.deleteMany({ where: { accountId, memberId } });
  const imported = await db.memberConsent.deleteMany({ where: { accountId, memberId } });
  return { records: records.count, importedConsents: imported.count };
}
