/**
 * Newsletters a reader ticks while signing up (docs/subscriptions.md "Registration wall": the
 * wall's unticked "Also send me the newsletter" box). Only what is ticked is joined, each with its
 * consent record (as the member page's switch: ./subscriptions.ts setMemberSubscription, PENDING
 * with a confirmation mail until the e-mail is proven). Checked before the member is created, so a
 * sign-up naming a newsletter readers cannot join changes nothing.
 */
import "server-only";

import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { MemberRecord } from "../members/members";
import { setMemberSubscription } from "./subscriptions";

/** NOT_FOUND (field `newsletters`) unless every slug names a newsletter of the account a new reader may join. */
export async function assertSignUpNewsletters(db: Db, accountId: number, slugs: readonly string[]): Promise<void> {
  if (slugs.length === 0) return;
  const found = await db.newsletter.findMany({
    where: { accountId, slug: { in: [...slugs] }, archivedAt: null, audience: { not: "PAYING" } },
    select: { slug: true },
  });
  const known = new Set(found.map((n) => n.slug));
  const missing = slugs.filter((slug) => !known.has(slug));
  if (missing.length > 0) {
    throw new AppError("NOT_FOUND", "No such newsletter.", {
      details: missing.map((slug) => ({
        field: "newsletters",
        issue: `"${slug}" is not a newsletter readers can join`,
      })),
    });
  }
}

/** Join the new member to the newsletters it ticked, each with its consent record. */
export async function joinSignUpNewsletters(
  db: Db,
  args: { accountId: number; member: MemberRecord; slugs: readonly string[]; now: Date },
): Promise<void> {
  for (const slug of new Set(args.slugs)) {
    await setMemberSubscription(db, {
      accountId: args.accountId,
      member: args.member,
      slug,
      subscribed: true,
      now: args.now,
    });
  }
}
