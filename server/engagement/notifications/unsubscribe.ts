/**
 * One-click unsubscribe (RFC 8058) behind every notification e-mail's List-Unsubscribe:
 * GET shows a small page that asks (and changes nothing: mail scanners follow links), POST, with
 * no session, turns the token's kind (or all) off. The token is the proof (token.ts): malformed is
 * 400, not signed for this account's member is 404. Both pages are in the reader's locale (the
 * member's saved choice, else the account's default), as the mail that linked to them was.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { escapeHtml, langDir, readerMail, type ReaderMail } from "../../i18n/reader-mail";
import { setPrefs, unsubscribeChange } from "./preferences";
import { isUnsubscribeTokenForm, unsubscribeKey, verifyUnsubscribeToken, type TUnsubscribeKind } from "./token";

/** The member and kind the token names (400 malformed, 404 not this account's member's). */
async function memberOfToken(db: Db, args: { accountId: number; token: string }) {
  if (!isUnsubscribeTokenForm(args.token)) {
    throw new AppError("BAD_REQUEST", "This unsubscribe link is not complete: copy the whole link from the e-mail.", {
      details: [{ field: "query.token", issue: "is not an unsubscribe token" }],
    });
  }
  const named = verifyUnsubscribeToken(unsubscribeKey(getEnv()), args.accountId, args.token);
  const member = named
    ? await db.member.findFirst({ where: { id: named.memberId, accountId: args.accountId }, select: { id: true } })
    : null;
  if (!named || !member) throw new AppError("NOT_FOUND", "This unsubscribe link is not one we sent.");
  return { memberId: member.id, kind: named.kind };
}

/** POST: turn the token's kind off. */
export async function unsubscribe(
  db: Db,
  args: { accountId: number; token: string; now: Date },
): Promise<{
  unsubscribed: TUnsubscribeKind;
  preferences: Awaited<ReturnType<typeof setPrefs>>;
  /** The reader's language, for the page a browser gets. */
  language: ReaderMail;
}> {
  const { memberId, kind } = await memberOfToken(db, args);
  const preferences = await setPrefs(db, {
    memberId,
    prefs: unsubscribeChange(kind),
    now: args.now,
    channel: "unsubscribe_link",
  });
  return { unsubscribed: kind, preferences, language: await readerMail(db, args.accountId, memberId) };
}

const PAGE_STYLE =
  "font-family:system-ui,Arial,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#18181b";
const BUTTON_STYLE =
  "font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:#1d4ed8;color:#fff;cursor:pointer";

function htmlPage(lang: ReaderMail, title: string, inner: string): string {
  return `<!doctype html>
<html ${langDir(lang)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body><main style="${PAGE_STYLE}"><h1 style="font-size:1.5rem">${escapeHtml(title)}</h1>${inner}</main></body></html>
`;
}

/** GET: the page that asks; its button POSTs the one-click body to the same URL. */
export async function unsubscribeConfirmPage(db: Db, args: { accountId: number; token: string }): Promise<string> {
  const { memberId, kind } = await memberOfToken(db, args);
  const lang = await readerMail(db, args.accountId, memberId);
  const action = `?token=${encodeURIComponent(args.token)}`;
  return htmlPage(
    lang,
    lang.t("unsubscribe"),
    `<p>${escapeHtml(lang.t("unsubscribeAsk", { kind }))}</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" style="${BUTTON_STYLE}">${escapeHtml(lang.t("unsubscribe"))}</button></form>
<p style="color:#52525b;font-size:.875rem">${escapeHtml(lang.t("unsubscribeTurnOnAgain"))}</p>`,
  );
}

/** The page a browser's POST (the confirm page's button) answers. */
export function unsubscribedPage(kind: TUnsubscribeKind, lang: ReaderMail): string {
  return htmlPage(
    lang,
    lang.t("unsubscribedTitle"),
    `<p>${escapeHtml(lang.t("unsubscribeDone", { kind }))} ${escapeHtml(lang.t("unsubscribeTurnOnAgain"))}</p>`,
  );
}
