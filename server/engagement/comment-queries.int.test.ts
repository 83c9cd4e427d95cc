/**
 * The SQL read paths of comment-queries.ts answer exactly what Prisma answers with the definitions
 * they replace (VISIBLE, and the listed top-level comments of a page), on generated pages where
 * every state occurs: held, spam, hidden and deleted comments, replies of each, placeholders,
 * equal times, reactions, and a second account.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import type { Prisma } from "@/server/generated/prisma/client";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { listedParentIds, realmCommentCount, visibleCommentsByUrl, visibleCommentStats } from "./comment-queries";
import { VISIBLE } from "./comments";
import type { TSortOrder } from "./comments.schema";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATES = [
  {},
  {},
  {},
  { isPublished: false },
  { isSpam: true, isPublished: false },
  { isSpam: true },
  { hiddenAt: new Date("2026-11-01T10:00:00Z") },
  { deletedAt: new Date("2026-11-01T11:00:00Z") },
] satisfies Partial<Prisma.CommentUncheckedCreateInput>[];

/** An account with `pages` pages of comments in every state, replies of each, and reactions. */
async function generate(db: Db, seed: number, pages: number) {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;
  const account = await createTestPublisher(db);
  const members = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      db.member.create({
        data: { accountId: account.id, name: `Reader ${i}`, email: `r${i}-${seed}@example.test`, passwordHash: "!" },
      }),
    ),
  );
  const pageRows = [];
  for (let p = 0; p < pages; p++) {
    const page = await db.page.create({ data: { accountId: account.id, url: `https://localhost/p${seed}-${p}` } });
    pageRows.push(page);
    const tops = [];
    for (let i = 0; i < 4 + Math.floor(rnd() * 12); i++) {
      // Few distinct minutes: equal created_at times, ordered by id.
      const createdAt = new Date(Date.UTC(2026, 10, 1, 12, Math.floor(rnd() * 6)));
      tops.push(
        await db.comment.create({
          data: {
            accountId: account.id,
            pageId: page.id,
            authorId: pick(members).id,
            body: { ops: [{ insert: `top ${i}\n` }] },
            bodyDigest: `${seed}-${p}-${i}`,
            createdAt,
            ...pick(STATES),
          },
        }),
      );
    }
    // Every state once more, with a visible reply each (placeholders, replies of held and spam comments).
    for (const [k, state] of STATES.entries()) {
      const top = await db.comment.create({
        data: {
          accountId: account.id,
          pageId: page.id,
          authorId: pick(members).id,
          body: { ops: [{ insert: `state ${k}\n` }] },
          bodyDigest: `${seed}-${p}-state-${k}`,
          createdAt: new Date(Date.UTC(2026, 10, 1, 12, k % 6)),
          ...state,
        },
      });
      await db.comment.create({
        data: {
          accountId: account.id,
          pageId: page.id,
          parentCommentId: top.id,
          authorId: pick(members).id,
          body: { ops: [{ insert: "visible reply\n" }] },
          bodyDigest: `${seed}-${p}-state-${k}-reply`,
          createdAt: new Date(Date.UTC(2026, 10, 1, 13)),
        },
      });
    }
    for (const top of tops) {
      for (let r = 0; r < Math.floor(rnd() * 3); r++) {
        await db.comment.create({
          data: {
            accountId: account.id,
            pageId: page.id,
            parentCommentId: top.id,
            authorId: pick(members).id,
            body: { ops: [{ insert: `reply ${r}\n` }] },
            bodyDigest: `${seed}-${p}-${top.id}-${r}`,
            createdAt: new Date(top.createdAt.getTime() + 60_000),
            ...pick(STATES),
          },
        });
      }
      const givers = members.filter(() => rnd() < 0.4);
      for (const m of givers) {
        await db.commentReaction.create({
          data: { commentId: top.id, memberId: m.id, reactionId: pick(["like", "wow"]) },
        });
      }
    }
  }
  return { account, pages: pageRows };
}

/** The listed top-level comments as listComments selected them with Prisma before. */
function listedParent(pageId: number): Prisma.CommentWhereInput {
  return {
    pageId,
    parentCommentId: null,
    isPublished: true,
    isSpam: false,
    OR: [{ deletedAt: null, hiddenAt: null }, { replies: { some: VISIBLE } }],
  };
}

const PRISMA_ORDER: Record<TSortOrder, Prisma.CommentOrderByWithRelationInput[]> = {
  newest: [{ createdAt: "desc" }, { id: "desc" }],
  oldest: [{ createdAt: "asc" }, { id: "asc" }],
  most_reacted: [{ reactions: { _count: "desc" } }, { createdAt: "desc" }, { id: "desc" }],
};

describe("comment-queries", () => {
  it("counts visible comments of the realm and of each page as VISIBLE does", async () => {
    const db = await getDb();
    const { account, pages } = await generate(db, 11, 5);
    const other = await generate(db, 12, 2);

    expect(await realmCommentCount(db, account.id)).toBe(
      await db.comment.count({ where: { accountId: account.id, ...VISIBLE } }),
    );
    expect(await realmCommentCount(db, other.account.id)).toBe(
      await db.comment.count({ where: { accountId: other.account.id, ...VISIBLE } }),
    );
    // Another account's page id asked with this account counts nothing.
    const ids = [...pages.map((p) => p.id), other.pages[0]!.id];
    const stats = await visibleCommentStats(db, account.id, ids);
    expect(stats.has(other.pages[0]!.id)).toBe(false);
    let placeholders = 0;
    for (const page of pages) {
      const total = await db.comment.count({ where: { pageId: page.id, ...VISIBLE } });
      const parents = await db.comment.count({ where: { pageId: page.id, parentCommentId: null, ...VISIBLE } });
      const listed = await db.comment.count({ where: listedParent(page.id) });
      const got = stats.get(page.id) ?? { total: 0, parents: 0, placeholders: 0 };
      expect(got, `page ${page.id}`).toEqual({ total, parents, placeholders: listed - parents });
      placeholders += listed - parents;
    }
    // By URL (the counts endpoint): the same totals; unknown and other accounts' URLs are absent.
    const byUrl = await visibleCommentsByUrl(db, account.id, [
      ...pages.map((p) => p.url),
      pages[0]!.url,
      "https://localhost/unknown",
      other.pages[0]!.url,
    ]);
    expect(byUrl).toEqual(new Map(pages.map((p) => [p.url, stats.get(p.id)?.total ?? 0] as const)));

    expect(await visibleCommentsByUrl(db, account.id, [])).toEqual(new Map());
    // The generated data has what the SQL must get right.
    expect(placeholders).toBeGreaterThan(0);
    for (const parent of [{ isPublished: false, isSpam: false }, { isSpam: true }]) {
      expect(
        await db.comment.count({
          where: {
            accountId: account.id,
            isPublished: true,
            isSpam: false,
            deletedAt: null,
            hiddenAt: null,
            parent,
          },
        }),
      ).toBeGreaterThan(0);
    }
    expect(await visibleCommentStats(db, account.id, [])).toEqual(new Map());
  });

  it("lists the page's top-level comments in the order, offset and limit Prisma gives", async () => {
    const db = await getDb();
    const { account, pages } = await generate(db, 21, 3);
    for (const page of pages) {
      for (const sort of ["newest", "oldest", "most_reacted"] as const) {
        for (const [offset, limit] of [
          [0, 20],
          [0, 3],
          [2, 4],
          [5, 100],
          [40, 20],
        ] as const) {
          const expected = await db.comment.findMany({
            where: listedParent(page.id),
            orderBy: PRISMA_ORDER[sort],
            skip: offset,
            take: limit,
            select: { id: true },
          });
          const got = await listedParentIds(db, { accountId: account.id, pageId: page.id, sort, offset, limit });
          expect(got, `page ${page.id} ${sort} ${offset}+${limit}`).toEqual(expected.map((c) => c.id));
        }
      }
    }
    // Another account's page lists nothing here.
    expect(
      await listedParentIds(db, {
        accountId: account.id + 100_000,
        pageId: pages[0]!.id,
        sort: "newest",
        offset: 0,
        limit: 20,
      }),
    ).toEqual([]);
  });
});
