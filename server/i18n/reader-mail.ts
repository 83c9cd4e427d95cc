/**
 * Mail to a reader in the reader's language (docs/i18n.md "Mail"): the locale is the member's
 * saved choice, else the account's default (server/i18n/locale-settings.ts `memberLocale`); the
 * words are the `mail` catalogue's with the account's overrides (`translatorFor`); dates go through
 * Intl in that locale and the account's time zone, with the zone named; money through
 * `formatMoney` from integer minor units. Everything is read with the caller's client, inside the
 * transaction that queues the mail, so looking the locale up changes nothing the outbox's
 * once-only rules rely on.
 *
 * `renderSimpleMail` lays out the short mails (codes, links, payment notices): plain text, and an
 * HTML part carrying `lang` and `dir` (Arabic right to left: `dir="rtl"` on the root and the
 * content table, text aligned right), every word escaped.
 */
import "server-only";

import { chooseLocale, directionOf, type Locale } from "@/i18n/locales";
import { formatDateTime, formatMoney, type Translate } from "@/i18n/translate";

import type { Db } from "../db/client";
import { escapeXml } from "../text/xml";
import { accountLocales, memberLocale } from "./locale-settings";
import { translatorFor } from "./overrides";

export type ReaderMail = {
  locale: Locale;
  dir: "ltr" | "rtl";
  t: Translate<"mail">;
  /** The account's IANA zone. */
  timeZone: string;
  dateTime(when: Date): string;
  money(cents: number, currency: string): string;
};

/** The kit from its parts (pure): the translator of `locale`, the account's zone. */
export function readerMailKit(locale: Locale, t: Translate<"mail">, timeZone: string): ReaderMail {
  return {
    locale,
    dir: directionOf(locale),
    t,
    timeZone,
    dateTime: (when) => formatDateTime(when, locale, timeZone),
    money: (cents, currency) => formatMoney(cents, currency, locale),
  };
}

/** A reader mail's language kit for a locale already chosen, with the account's overrides and zone. */
async function readerMailIn(db: Db, accountId: number, locale: Locale): Promise<ReaderMail> {
  const [t, account] = await Promise.all([
    translatorFor(db, accountId, "mail", locale),
    db.account.findUnique({ where: { id: accountId }, select: { timeZone: true } }),
  ]);
  return readerMailKit(locale, t, account?.timeZone || "UTC");
}

/** The kit for mail to `memberId` (null: someone without a member record gets the account's default). */
export async function readerMail(db: Db, accountId: number, memberId: number | null): Promise<ReaderMail> {
  return readerMailIn(db, accountId, await memberLocale(db, accountId, memberId));
}

/** The locale of each of `memberIds`, as `memberLocale` chooses it, in one statement (a newsletter batch). */
export async function memberLocales(
  db: Db,
  accountId: number,
  memberIds: readonly number[],
): Promise<Map<number, Locale>> {
  const [locales, members] = await Promise.all([
    accountLocales(db, accountId),
    memberIds.length
      ? db.member.findMany({ where: { accountId, id: { in: [...memberIds] } }, select: { id: true, locale: true } })
      : [],
  ]);
  const saved = new Map(members.map((m) => [m.id, m.locale]));
  return new Map(
    memberIds.map((id) => [id, chooseLocale([saved.get(id)], locales.offered, locales.defaultLocale)] as const),
  );
}

/** The greeting, with or without a name. */
export function greeting(mail: Pick<ReaderMail, "t">, name: string | null | undefined): string {
  const clean = name?.trim();
  return clean ? mail.t("greeting", { name: clean }) : mail.t("greetingNoName");
}

/** Text for HTML: the five characters that matter escaped (one escaper for XML and HTML alike). */
export const escapeHtml = (text: string): string => escapeXml(text);

/** The attributes of a mail's root: its language and direction. */
export function langDir(mail: Pick<ReaderMail, "locale" | "dir">): string {
  return `lang="${mail.locale}" dir="${mail.dir}"`;
}

/** The text alignment of the locale's start (right for Arabic), for inline styles. */
export const startAlign = (mail: Pick<ReaderMail, "dir">) => (mail.dir === "rtl" ? "right" : "left");

/** A short mail's parts: paragraphs, a link (a button in HTML, the bare URL in text), a code. */
export type MailBlock = { p: string } | { link: string; label: string } | { code: string };

const SANS = "font-family:Arial,Helvetica,sans-serif;";

function blockHtml(block: MailBlock): string {
  if ("p" in block) return `<p style="margin:0 0 16px;">${escapeHtml(block.p).replace(/\n/g, "<br>")}</p>`;
  if ("code" in block)
    return `<p style="margin:0 0 16px;font-family:Menlo,Consolas,monospace;font-size:28px;letter-spacing:4px;" dir="ltr">${escapeHtml(block.code)}</p>`;
  return (
    `<p style="margin:0 0 8px;"><a href="${escapeHtml(block.link)}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;border-radius:4px;text-decoration:none;font-weight:bold;">${escapeHtml(block.label)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:12px;color:#52525b;word-break:break-all;" dir="ltr">${escapeHtml(block.link)}</p>`
  );
}

function blockText(block: MailBlock): string {
  if ("p" in block) return block.p;
  if ("code" in block) return `    ${block.code}`;
  return block.link;
}

/** Escaped text whose web addresses are links. */
const linked = (text: string) =>
  escapeHtml(text).replace(
    /https?:\/\/[^\s<]+/g,
    (url) => `<a href="${url}" dir="ltr" style="color:#71717a;">${url}</a>`,
  );

/** A short mail: its subject (the HTML's title too), the greeting, its blocks and an optional footer line, as text and HTML. */
export function renderSimpleMail(
  mail: ReaderMail,
  args: { subject: string; name: string | null | undefined; blocks: readonly MailBlock[]; footer?: string },
): { subject: string; text: string; html: string } {
  const hello = greeting(mail, args.name);
  const text = [hello, ...args.blocks.map(blockText), ...(args.footer ? ["--", args.footer] : [])].join("\n\n") + "\n";
  const align = startAlign(mail);
  const html = `<!doctype html>
<html ${langDir(mail)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(args.subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:16px 8px;" ${langDir(mail)}><tr><td>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;table-layout:fixed;background:#ffffff;border:1px solid #e4e4e7;border-radius:8px;">
<tr><td style="padding:24px;${SANS}font-size:15px;line-height:1.5;color:#18181b;overflow-wrap:anywhere;word-break:break-word;text-align:${align};">
<p style="margin:0 0 16px;">${escapeHtml(hello)}</p>${args.blocks.map(blockHtml).join("")}</td></tr>
${args.footer ? `<tr><td style="padding:16px 24px;${SANS}font-size:12px;color:#71717a;overflow-wrap:anywhere;word-break:break-word;text-align:${align};">${linked(args.footer)}</td></tr>` : ""}
</table></td></tr></table></body></html>
`;
  return { subject: args.subject, text, html };
}
