/**
 * One-click unsubscribe (RFC 8058) behind every notification e-mail's List-Unsubscribe:
 * GET shows a small page that asks (and changes nothing: mail scanners follow links), POST, with
 * no session, turns the token's kind (or all) off. The token is the proof (token.ts): malformed is
 * 400, not signed for this account's member is 404.
 */
import "server-only";

import { getEnv } from "../../../env.js";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { escapeHtml } from "../../mail/reader-mail";
import { setPrefs, unsubscribeChange } from "./preferences";
import { isUnsubscribeTokenForm, unsubscribeKey, verifyUnsubscribeToken, type TUnsubscribeKind } from "./token";

const KIND_WORDS: Record<TUnsubscribeKind, string> = {
  replies: "e-mails about replies to your comments",
  mentions: "e-mails about mentions of you",
  decisions: "e-mails about moderators' decisions on your comments",
  all: "every e-mail about your comments",
};

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
): Promise<{ unsubscribed: TUnsubscribeKind; preferences: Awaited<ReturnType<typeof setPrefs>> }> {
  const { memberId, kind } = await memberOfToken(db, args);
  const preferences = await setPrefs(db, { memberId, prefs: unsubscribeChange(kind), now: args.now });
  return { unsubscribed: kind, preferences };
}

const PAGE_STYLE =
  "font-family:system-ui,Arial,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#18181b";
const BUTTON_STYLE =
  "font:inherit;padding:.5rem 1rem;border:0;border-radius:.375rem;background:#1d4ed8;color:#fff;cursor:pointer";

function htmlPage(title: string, inner: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body><main style="${PAGE_STYLE}"><h1 style="font-size:1.5rem">${escapeHtml(title)}</h1>${inner}</main></body></html>
`;
}

/** GET: the page that asks; its button POSTs the one-click body to the same URL. */
export async function unsubscribeConfirmPage(db: Db, args: { accountId: number; token: string }): Promise<string> {
  const { kind } = await memberOfToken(db, args);
  const action = `?token=${encodeURIComponent(args.token)}`;
  return htmlPage(
    "Unsubscribe",
    `<p>Stop ${escapeHtml(KIND_WORDS[kind])}?</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" style="${BUTTON_STYLE}">Unsubscribe</button></form>
<p style="color:#52525b;font-size:.875rem">You can turn them on again in the comments' Notifications settings.</p>`,
  );
}

/** The page a browser's POST (the confirm page's button) answers. */
export function unsubscribedPage(kind: TUnsubscribeKind): string {
  return htmlPage(
    "Unsubscribed",
    `<p>You will get no more ${escapeHtml(KIND_WORDS[kind])}. You can turn them on again in the comments' Notifications settings.</p>`,
  );
}
