/**
 * "privacy.export.build": build one requested export (./requests.ts) — collect the member's data
 * (./collect.ts), write data.json and index.html (./render.ts) into a .zip (./zip.ts), keep it in
 * the app's storage, mark the row READY until EXPORT_TTL_DAYS later and, when the reader is to be
 * told, queue the mail with the download link.
 *
 * Once only: the job is transactional and starts by locking the export's row; a run that finds
 * it no longer PENDING does nothing. Two runs at once (two workers, a retried job, a test calling
 * `buildMemberExport` twice in parallel) take turns on the lock, and the second finds it READY:
 * one archive, one mail. A run killed half-way commits nothing; the archive it may have stored
 * sits under the export's own key (`<account>/exports/<id>.zip`) and the next run writes it again.
 *
 * The link's token is random (32 bytes), mailed once, and kept as its SHA-256 only.
 */
import "server-only";

import { createHash, randomBytes } from "node:crypto";

import { z } from "zod";

import { isLocale, type Locale } from "@/i18n/locales";

import { getEnv } from "../../../env.js";
import type { TransactionClient } from "../../db/client";
import { translatorFor } from "../../i18n/overrides";
import { readerMailKit, renderSimpleMail } from "../../i18n/reader-mail";
import { defineJob } from "../../jobs/define";
import { queueEmail } from "../../mail/outbox";
import { isPlaceholderEmail } from "../../members/identities";
import { hostedMemberOrigin } from "../../members/reset-link";
import { getPublisher } from "../../publishing/publisher";
import { imageStorageFromEnv, type ImageStorage } from "../../storage/image-storage";
import { collectMemberData } from "./collect";
import { renderExportHtml } from "./render";
import { createZip } from "./zip";

/** How long a built export may be downloaded. */
export const EXPORT_TTL_DAYS = 7;
export const EXPORT_MAIL_KIND = "privacy.export_ready";

/** The storage exports live in: the app's (server/storage), under "<accountId>/exports/". */
export function exportStorage(): ImageStorage {
  return imageStorageFromEnv(getEnv());
}

/** Where an export's archive is kept: fixed by its id, so a repeated run overwrites and cleanup always finds it. */
export const exportStorageKey = (accountId: number, exportId: string) => `${accountId}/exports/${exportId}.zip`;

/** SHA-256 (hex) of a download token: what the row keeps. */
export const hashExportToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Where mail to the reader goes: their communication address, else their sign-in one (null: a placeholder only). */
export function readerAddress(member: { email: string; communicationEmail: string | null }): string | null {
  const to = member.communicationEmail ?? member.email;
  return isPlaceholderEmail(to) ? null : to;
}

/** The download link a mail carries: on the publication's member pages' host, where the reader is signed in. */
async function downloadLink(
  tx: TransactionClient,
  args: { accountId: number; exportId: string; token: string; appUrl: string },
): Promise<string> {
  const publisher = await getPublisher(tx, args.accountId, { appUrl: args.appUrl });
  const origin =
    (await hostedMemberOrigin(tx, { publisher, appUrl: args.appUrl, fallbackSlug: getEnv().PUBLISHING_ACCOUNT })) ??
    new URL(args.appUrl).origin;
  return `${origin}/api/member/privacy/exports/${args.exportId}?token=${encodeURIComponent(args.token)}`;
}

/**
 * Build the export `exportId` if it is still PENDING (see the module comment). Returns whether
 * this call built it.
 */
export async function buildMemberExport(
  tx: TransactionClient,
  args: { exportId: string; now: Date; appUrl: string; storage: ImageStorage },
): Promise<{ built: boolean }> {
  const { exportId, now } = args;
  await tx.$queryRaw`SELECT id FROM member_data_exports WHERE id = ${exportId}::uuid FOR UPDATE`;
  const row = await tx.memberDataExport.findUnique({ where: { id: exportId } });
  if (!row || row.status !== "PENDING") return { built: false };
  const { accountId, memberId } = row;
  const locale: Locale = isLocale(row.locale) ? row.locale : "en";
  const [data, account, pageWords, mailWords] = await Promise.all([
    collectMemberData(tx, { accountId, memberId, now }),
    tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { timeZone: true, name: true } }),
    translatorFor(tx, accountId, "member", locale),
    translatorFor(tx, accountId, "mail", locale),
  ]);
  const timeZone = account.timeZone || "UTC";
  const html = renderExportHtml(data, { locale, t: pageWords, timeZone });
  const archive = createZip(
    [
      { name: "data.json", data: Buffer.from(JSON.stringify(data, null, 2) + "\n", "utf8") },
      { name: "index.html", data: Buffer.from(html, "utf8") },
    ],
    now,
  );
  const storageKey = exportStorageKey(accountId, exportId);
  await args.storage.put(storageKey, archive, { contentType: "application/zip" });

  // A reader with no address (a placeholder only) cannot ask (./requests.ts); staff's request is not mailed then.
  const member = await tx.member.findUniqueOrThrow({
    where: { id: memberId },
    select: { name: true, email: true, communicationEmail: true },
  });
  const to = row.mailReader ? readerAddress(member) : null;
  const token = to ? randomBytes(32).toString("base64url") : null;
  const expiresAt = new Date(now.getTime() + EXPORT_TTL_DAYS * 86_400_000);
  await tx.memberDataExport.update({
    where: { id: exportId },
    data: {
      status: "READY",
      pendingMemberId: null,
      storageKey,
      bytes: archive.length,
      tokenHash: token ? hashExportToken(token) : null,
      readyAt: now,
      expiresAt,
    },
  });
  if (token && to) {
    const mail = readerMailKit(locale, mailWords, timeZone);
    const link = await downloadLink(tx, { accountId, exportId, token, appUrl: args.appUrl });
    const publisher = account.name;
    const until = mail.dateTime(expiresAt);
    await queueEmail(tx, {
      accountId,
      to,
      ...renderSimpleMail(mail, {
        subject: mail.t("exportReadySubject", { publisher }),
        name: member.name,
        blocks: [
          {
            p:
              row.requestedBy === "staff"
                ? mail.t("exportReadyIntroStaff", { publisher })
                : mail.t("exportReadyIntro", { publisher }),
          },
          { link, label: mail.t("exportReadyButton") },
          { p: mail.t("exportReadyUntil", { date: until }) },
          { p: mail.t("exportReadySignedIn") },
        ],
      }),
      kind: EXPORT_MAIL_KIND,
      now,
    });
  }
  return { built: true };
}

export const buildExportJob = defineJob<{ exportId: string }>({
  name: "privacy.export.build",
  kind: "transactional",
  payload: z.object({ exportId: z.uuid() }),
  // A large reader's data takes a while to read and pack: no second worker takes it meanwhile.
  leaseMs: 5 * 60_000,
  /**
   * Every attempt failed (storage down for an hour): the request ends as EXPIRED, so the reader
   * sees it is not coming and may ask again (a pending one would stand in the way for good).
   */
  async onFailed(tx, job) {
    await tx.memberDataExport.updateMany({
      where: { id: job.payload.exportId, status: "PENDING" },
      data: { status: "EXPIRED", pendingMemberId: null },
    });
  },
  async run(tx, job, ctx) {
    await buildMemberExport(tx, {
      exportId: job.payload.exportId,
      now: ctx.clock(),
      appUrl: ctx.appUrl,
      storage: exportStorage(),
    });
  },
});
