/**
 * Appeals against a notice's decision: the internal complaint of DSA art. 20 (docs/privacy.md,
 * "Illegal-content notices").
 *
 * - With the decision, each party that can be mailed (the comment's author, the notifier) gets one
 *   `dsa_appeals` row (unique per notice and party) and a link /member/dsa-appeal?token=<id>.<secret>:
 *   only the secret's SHA-256 is stored, compared in constant time; the token is never logged.
 * - The page shows the decision and takes the party's text once, within six months of the
 *   decision: the update that sets `submitted_at` where it is null decides between two sends (the
 *   second, even at the same moment, is 409). A token that is not the row's (another party's
 *   secret, another account's link, a made-up one) is 404, and changes nothing.
 */
import "server-only";

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

import { getEnv } from "../../../env.js";
import { recordAudit } from "../../audit/audit-log";
import { systemActor } from "../../auth/actor";
import type { Db } from "../../db/client";
import { withTransaction } from "../../db/transaction";
import { AppError } from "../../errors";
import { hostedMemberOrigin } from "../../members/reset-link";
import { getPublisher } from "../../publishing/publisher";

/** Where an appeal link lands (app/member/dsa-appeal). */
const APPEAL_PATH = "/member/dsa-appeal";

/** An appeal may be made for six months after the decision (DSA art. 20(1)). */
export function appealDeadline(decidedAt: Date): Date {
  const until = new Date(decidedAt.getTime());
  until.setUTCMonth(until.getUTCMonth() + 6);
  return until;
}

function hashAppealSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** A new link secret (43 characters of base64url) and its hash. */
export function newAppealSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: hashAppealSecret(secret) };
}

/** The link to the appeal page, on the publication's member pages' origin. */
export async function appealUrl(db: Db, args: { accountId: number; appealId: number; secret: string }) {
  const appUrl = getEnv().APP_URL;
  const publisher = await getPublisher(db, args.accountId, { appUrl });
  const origin =
    (await hostedMemberOrigin(db, { publisher, appUrl, fallbackSlug: getEnv().PUBLISHING_ACCOUNT })) ??
    new URL(appUrl).origin;
  return `${origin}${APPEAL_PATH}?token=${encodeURIComponent(`${args.appealId}.${args.secret}`)}`;
}

const notFound = () => new AppError("NOT_FOUND", "This appeal link is not valid.");

/** The appeal a token names (in the account, when given), or 404 (the secret compared in constant time). */
async function appealOfToken(db: Db, accountId: number | null, token: string) {
  const dot = token.indexOf(".");
  const id = Number(token.slice(0, dot));
  const secret = token.slice(dot + 1);
  if (dot < 1 || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw notFound();
  const appeal = await db.dsaAppeal.findFirst({
    where: { id, ...(accountId === null ? {} : { accountId }) },
    include: { notice: { include: { comment: { include: { page: true } } } } },
  });
  const given = Buffer.from(hashAppealSecret(secret), "hex");
  const stored = Buffer.from(appeal?.tokenHash ?? "0".repeat(64), "hex");
  const matches = stored.length === given.length && timingSafeEqual(stored, given);
  if (!appeal || !matches) throw notFound();
  return appeal;
}

/** The account and language of a valid appeal link (its page's reader), or null. */
export async function dsaAppealReader(
  db: Db,
  args: { token: string },
): Promise<{ accountId: number; locale: string | null } | null> {
  if (args.token.length > 60) return null;
  try {
    const appeal = await appealOfToken(db, null, args.token);
    return { accountId: appeal.accountId, locale: appeal.locale };
  } catch {
    return null;
  }
}

type TDsaAppealView = {
  party: "author" | "notifier";
  locale: string | null;
  headline: string;
  action: string;
  category: string;
  ground: string;
  ground_reference: string;
  facts: string;
  decided_at: string;
  appeal_until: string;
  /** Already appealed: when (no second appeal). */
  submitted_at: string | null;
  outcome: string | null;
  can_appeal: boolean;
};

/** What the appeal page shows: the decision, and whether the party may still appeal. */
export async function dsaAppealView(
  db: Db,
  args: { accountId: number; token: string; now: Date },
): Promise<TDsaAppealView> {
  const appeal = await appealOfToken(db, args.accountId, args.token);
  const { notice } = appeal;
  if (!notice.decidedAt || !notice.action) throw notFound();
  return {
    party: appeal.party === "author" ? "author" : "notifier",
    locale: appeal.locale,
    headline: notice.comment?.page.headline || notice.comment?.page.url || "",
    action: notice.action,
    category: notice.decisionCategory ?? notice.category,
    ground: notice.ground ?? "legal",
    ground_reference: notice.groundReference ?? "",
    facts: notice.facts ?? "",
    decided_at: notice.decidedAt.toISOString(),
    appeal_until: appeal.expiresAt.toISOString(),
    submitted_at: appeal.submittedAt?.toISOString() ?? null,
    outcome: appeal.outcome,
    can_appeal: appeal.submittedAt === null && appeal.expiresAt.getTime() > args.now.getTime(),
  };
}

/** A party's appeal (once; 409 for a second, 410 after six months). */
export async function submitDsaAppeal(
  db: Db,
  args: { accountId: number; token: string; text: string; now: Date },
): Promise<{ appeal: { id: number; submitted_at: string } }> {
  const { accountId, now } = args;
  const appeal = await appealOfToken(db, accountId, args.token);
  if (appeal.submittedAt) throw new AppError("CONFLICT", "This decision was appealed already: one appeal each.");
  if (appeal.expiresAt.getTime() <= now.getTime()) {
    throw new AppError("GONE", "The six months to appeal this decision have passed.");
  }
  return withTransaction(db, async (tx) => {
    const moved = await tx.dsaAppeal.updateMany({
      where: { id: appeal.id, submittedAt: null },
      data: { text: args.text, submittedAt: now },
    });
    if (moved.count === 0) throw new AppError("CONFLICT", "This decision was appealed already: one appeal each.");
    await recordAudit(tx, {
      actor: systemActor(accountId, "dsa.appeal"),
      action: "dsa.appeal.submitted",
      targetType: "dsa_notice",
      targetId: appeal.noticeId,
      metadata: { appealId: appeal.id, party: appeal.party },
      now,
    });
    return { appeal: { id: appeal.id, submitted_at: now.toISOString() } };
  });
}
