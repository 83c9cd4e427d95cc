/**
 * What a reader does with a delivered mail, counted on its delivery (docs/newsletters.md,
 * "Measuring"): the open pixel and the redirected links (./links.ts), both carrying the
 * delivery's signed token (./tokens.ts).
 *
 * - An **open** sets the delivery's `openedAt` once (the first open; later ones change nothing),
 *   and only when its newsletter tracks opens. A token that is malformed, unknown or not signed for
 *   the delivery's account changes nothing: the pixel is answered all the same, since a mail
 *   client shows whatever comes back.
 * - A **click** needs a valid token and the MAC that binds the URL to that delivery, and an
 *   http(s) URL: then it adds a NewsletterClick row, sets `clickedAt` once (the first click) and
 *   the caller redirects. Anything else is refused (BAD_REQUEST), so the route never redirects to
 *   a URL Masthead did not put in that mail.
 * - A **HEAD** counts nothing (link scanners send them): the routes answer it as they would a GET,
 *   the click's from verifyClick (the same checks, the same redirect or refusal).
 */
import "server-only";

import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { isClickMacValid } from "./links";
import { verifyNewsletterToken } from "./tokens";

/** The longest URL a redirected link may carry (longer ones are refused, not cut). */
export const MAX_CLICK_URL_LENGTH = 4096;

const DELIVERY_ID = /^delivery\.([1-9][0-9]{0,18})\./;

/** The delivery a token names, when it was signed for that delivery's account; else null. */
async function deliveryOfToken(db: Db, key: Buffer, token: string) {
  const match = DELIVERY_ID.exec(token);
  if (!match) return null;
  const id = BigInt(match[1]!);
  if (id > 9_223_372_036_854_775_807n) return null;
  const delivery = await db.newsletterDelivery.findUnique({
    where: { id },
    select: { id: true, accountId: true, send: { select: { newsletter: { select: { trackOpens: true } } } } },
  });
  if (!delivery) return null;
  const verified = verifyNewsletterToken(key, delivery.accountId, token, ["delivery"]);
  if (!verified || verified.id !== String(delivery.id)) return null;
  return delivery;
}

/**
 * Count an open of the token's delivery: true when it set the delivery's `openedAt` (the earliest
 * open; a later one changes nothing). Nothing is counted for a token that names no delivery of its
 * signer's account, nor when the newsletter does not track opens.
 */
export async function recordOpen(db: Db, args: { key: Buffer; token: string; now: Date }): Promise<boolean> {
  const delivery = await deliveryOfToken(db, args.key, args.token);
  if (!delivery?.send.newsletter.trackOpens) return false;
  const { count } = await db.newsletterDelivery.updateMany({
    // The earliest open wins, whichever of two racing requests commits first.
    where: { id: delivery.id, OR: [{ openedAt: null }, { openedAt: { gt: args.now } }] },
    data: { openedAt: args.now },
  });
  return count === 1;
}

/** `text` as an absolute http(s) URL, or null. */
function httpUrl(text: string): URL | null {
  if (text.length > MAX_CLICK_URL_LENGTH) return null;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

const INVALID_LINK = "This link is not valid: open the newsletter's own link again.";

/**
 * Where a redirected link sends the reader (`url` parsed: what a browser following the link itself
 * would open) and the delivery it was sent in, without counting anything: what a HEAD is answered
 * from. BAD_REQUEST when the token or the MAC does not hold or `url` is not http(s).
 */
export async function verifyClick(
  db: Db,
  args: { key: Buffer; token: string; url: string; h: string },
): Promise<{ deliveryId: bigint; location: string }> {
  const target = httpUrl(args.url);
  if (!target) {
    throw new AppError("BAD_REQUEST", "The link's address is not an http(s) URL.", {
      details: [{ field: "u", issue: "is not an http(s) URL" }],
    });
  }
  const delivery = await deliveryOfToken(db, args.key, args.token);
  if (!delivery) {
    throw new AppError("BAD_REQUEST", INVALID_LINK, { details: [{ field: "token", issue: "is not valid" }] });
  }
  const macValid = isClickMacValid({
    key: args.key,
    accountId: delivery.accountId,
    deliveryId: String(delivery.id),
    url: args.url,
    h: args.h,
  });
  if (!macValid) {
    throw new AppError("BAD_REQUEST", INVALID_LINK, {
      details: [{ field: "h", issue: "does not match the link's address" }],
    });
  }
  // The parsed URL as a header can carry it: ASCII, percent-encoded, without the tabs and line
  // breaks the parser drops (a signed link's text may hold them; a header value may not).
  return { deliveryId: delivery.id, location: target.href };
}

/**
 * Count a click of the token's delivery on `url` and answer where to send the reader (as
 * verifyClick). BAD_REQUEST, changing nothing, when the token or the MAC does not hold or `url` is
 * not http(s).
 */
export async function recordClick(
  db: Db,
  args: { key: Buffer; token: string; url: string; h: string; now: Date },
): Promise<{ location: string }> {
  const { deliveryId, location } = await verifyClick(db, args);
  await withTransaction(db, async (tx) => {
    await tx.newsletterClick.create({ data: { deliveryId, url: args.url, clickedAt: args.now } });
    await tx.newsletterDelivery.updateMany({
      where: { id: deliveryId, OR: [{ clickedAt: null }, { clickedAt: { gt: args.now } }] },
      data: { clickedAt: args.now },
    });
  });
  return { location };
}
