/**
 * Reactions on a page itself (docs/engagement.md, "Page reactions"): what the page-reactions
 * widget shows and sets. The spec names the widget (`pageReactionsIframe`) and the `reactions`
 * of a page (a map of reaction id to count) but not the calls; these follow comment reactions.
 *
 * - The same reaction ids as comments (REACTION_IDS). Anyone reads the counts; a signed-in
 *   reader (publisher JWT → member) also gets `my_reactions`, the ids they gave.
 * - Giving a reaction creates the page on first use (on the publication's hosts only, as a first
 *   comment does); one row per page, reader and reaction id (the unique index, ON CONFLICT DO
 *   NOTHING), so giving it twice, even at the same moment, counts once and answers the same.
 * - Taking back a reaction the reader does not have changes nothing (200).
 * - A banned reader (moderation/bans/bans.ts) is 403, for giving and taking back alike.
 * - Reading a page nobody has reacted to or commented on creates nothing: all counts are 0.
 */
import "server-only";

import { getEnv } from "../../env.js";
import type { ApiUser } from "../auth/api-auth";
import type { Db } from "../db/client";
import { withTransaction } from "../db/transaction";
import { findJwtMember, findOrCreateJwtMember } from "../members/identities";
import { getPublisher } from "../publishing/publisher";
import { assertNotBanned } from "./moderation/bans/bans";
import { assertPageMayOpen, decodePageId, findOrCreatePage, findPage } from "./pages";
import { REACTION_IDS, type TPageReactionsWire, type TReactionId } from "./reactions.schema";

const PAGE_FIELD = "params.encoded_url";

/** The counts per reaction id (as a comment's: ids nobody gave are left out) and the reader's own. */
async function answer(db: Db, pageId: number | null, url: string, memberId: number | null) {
  const reactions: Partial<Record<TReactionId, number>> = {};
  const mine: TReactionId[] = [];
  if (pageId !== null) {
    const [counts, own] = await Promise.all([
      db.pageReaction.groupBy({ by: ["reactionId"], where: { pageId }, _count: { _all: true } }),
      memberId === null
        ? Promise.resolve([])
        : db.pageReaction.findMany({ where: { pageId, memberId }, select: { reactionId: true } }),
    ]);
    // In REACTION_IDS order, so the answer's keys keep one order.
    const count = new Map(counts.map((row) => [row.reactionId, row._count._all]));
    for (const id of REACTION_IDS) if (count.get(id)) reactions[id] = count.get(id);
    const given = new Set(own.map((row) => row.reactionId));
    mine.push(...REACTION_IDS.filter((id) => given.has(id)));
  }
  const total = Object.values(reactions).reduce((sum, n) => sum + n, 0);
  return { page_url: url, reactions, total_count: total, my_reactions: mine } satisfies TPageReactionsWire;
}

/** The page's reaction counts; with a reader, the ones they gave. Creates nothing. */
export async function pageReactions(
  db: Db,
  args: { accountId: number; user: ApiUser | null; encodedUrl: string },
): Promise<TPageReactionsWire> {
  const url = decodePageId(args.encodedUrl, PAGE_FIELD);
  const [page, member] = await Promise.all([
    findPage(db, args.accountId, url),
    args.user ? findJwtMember(db, { accountId: args.accountId, userId: args.user.id }) : null,
  ]);
  return answer(db, page?.id ?? null, url, member?.id ?? null);
}

type ChangeArgs = { accountId: number; user: ApiUser; encodedUrl: string; reactionId: TReactionId; now: Date };

/** Give the reader's reaction to the page (created on first use); giving it again changes nothing. */
export async function addPageReaction(db: Db, args: ChangeArgs): Promise<TPageReactionsWire> {
  const url = decodePageId(args.encodedUrl, PAGE_FIELD);
  const [publisher, read] = await Promise.all([
    getPublisher(db, args.accountId, { appUrl: getEnv().APP_URL }),
    findPage(db, args.accountId, url),
  ]);
  // A page that cannot open is refused before the reader's member record is made.
  assertPageMayOpen(publisher, url, read);
  const member = await findOrCreateJwtMember(db, { accountId: args.accountId, user: args.user, now: args.now });
  await assertNotBanned(db, { accountId: args.accountId, memberId: member.id, now: args.now });
  const page = await withTransaction(
    db,
    async (tx) => {
      const page = await findOrCreatePage(tx, publisher, url, args.now);
      await tx.pageReaction.createMany({
        data: [{ pageId: page.id, memberId: member.id, reactionId: args.reactionId, createdAt: args.now }],
        skipDuplicates: true,
      });
      return page;
    },
    // Two first reactions to a new page at once: the unique (account, url) keeps one page.
    { retryUniqueClashes: true },
  );
  return answer(db, page.id, url, member.id);
}

/** Take the reader's reaction to the page back; without one, nothing changes. */
export async function removePageReaction(db: Db, args: ChangeArgs): Promise<TPageReactionsWire> {
  const url = decodePageId(args.encodedUrl, PAGE_FIELD);
  const [page, member] = await Promise.all([
    findPage(db, args.accountId, url),
    findJwtMember(db, { accountId: args.accountId, userId: args.user.id }),
  ]);
  if (member) {
    await assertNotBanned(db, { accountId: args.accountId, memberId: member.id, now: args.now });
    if (page)
      await db.pageReaction.deleteMany({
        where: { pageId: page.id, memberId: member.id, reactionId: args.reactionId },
      });
  }
  return answer(db, page?.id ?? null, url, member?.id ?? null);
}
