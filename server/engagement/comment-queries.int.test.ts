/**
 * The SQL read paths of comment-queries.ts answer exactly what Prisma answers with the definitions
 * they replace (VISIBLE, and the listed top-level comments of a page), on generated pages where
 * every state occurs: held, spam, hidden and deleted comments, replies of each, placeholders,
 * equal times, reactions, and a second account.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import type { Page, Prisma } from "@/server/generated/prisma/client";
import { mulberry32 } from "@/server/seeded-random";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import {
  listedParentIds,
  pageAndRealmCounts,
  realmCommentCount,
  visibleCommentsByUrl,
  visibleCommentStats,
} from "./comment-queries";
import { VISIBLE } from "./comments";
import type { TSortOrder } from "./comments.schema";

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
  // A failure can be replayed from its seed.
  const rnd = mulberry32(seed);
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

/** The realm count, each page's stats and counts by URL are VISIBLE's, counted afresh with Prisma. */
async function expectCountsAsVisible(db: Db, accountId: number, pages: Page[], otherAccountsPage: Page) {
  const realm = await db.comment.count({ where: { accountId, ...VISIBLE } });
  expect(await realmCommentCount(db, accountId)).toBe(realm);
  // Another account's page id asked with this account counts nothing.
  const stats = await visibleCommentStats(db, accountId, [...pages.map((p) => p.id), otherAccountsPage.id]);
  expect(stats.has(otherAccountsPage.id)).toBe(false);
  let placeholders = 0;
  for (const page of pages) {
    const total = await db.comment.count({ where: { pageId: page.id, ...VISIBLE } });
    const parents = await db.comment.count({ where: { pageId: page.id, parentCommentId: null, ...VISIBLE } });
    const listed = await db.comment.count({ where: listedParent(page.id) });
    const got = stats.get(page.id) ?? { total: 0, parents: 0, placeholders: 0 };
    expect(got, `page ${page.id}`).toEqual({ total, parents, placeholders: listed - parents });
    // Both at once (a create's answer); a page without visible comments has no stats.
    expect(await pageAndRealmCounts(db, accountId, page.id)).toEqual({ stats: stats.get(page.id), realm });
    placeholders += listed - parents;
  }
  expect(placeholders).toBeGreaterThan(0);
  // By URL (the counts endpoint): the same totals; unknown and other accounts' URLs are absent.
  const { totals: byUrl, qaPages } = await visibleCommentsByUrl(db, accountId, [
    ...pages.map((p) => p.url),
    pages[0]!.url,
    "https://localhost/unknown",
    otherAccountsPage.url,
  ]);
  expect(byUrl).toEqual(new Map(pages.map((p) => [p.url, stats.get(p.id)?.total ?? 0] as const)));
  expect(qaPages).toEqual([]);
}

describe("comment-queries", () => {
  it("counts visible comments of the realm and of each page as VISIBLE does", async () => {
    const db = await getDb();
    const { account, pages } = await generate(db, 11, 5);
    const other = await generate(db, 12, 2);

    await expectCountsAsVisible(db, account.id, pages, other.pages[0]!);
    expect(await realmCommentCount(db, other.account.id)).toBe(
      await db.comment.count({ where: { accountId: other.account.id, ...VISIBLE } }),
    );
    expect(await visibleCommentsByUrl(db, account.id, [])).toEqual({ totals: new Map(), qaPages: [] });
    // The generated data has what the SQL must get right.
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

  it("keeps its counts (comment_counts, written by the database's triggers) through every kind of write", async () => {
    const db = await getDb();
    const { account, pages } = await generate(db, 31, 4);
    const other = await generate(db, 32, 1);
    const [first, second, third, fourth] = pages as [Page, Page, Page, Page];
    const tops = (pageId: number) =>
      db.comment.findMany({ where: { pageId, parentCommentId: null }, orderBy: { id: "asc" }, select: { id: true } });
    const [a, b, c] = (await tops(first.id)) as [{ id: number }, { id: number }, { id: number }];
    const now = new Date("2026-11-24T09:00:00Z");
    // One comment at a time: hidden, shown again, deleted; a parent held and spammed (its replies with it).
    await db.comment.update({ where: { id: a.id }, data: { hiddenAt: now } });
    await db.comment.update({ where: { id: a.id }, data: { hiddenAt: null } });
    await db.comment.update({ where: { id: b.id }, data: { deletedAt: now } });
    await db.comment.update({ where: { id: c.id }, data: { isPublished: false } });
    await db.comment.update({ where: { id: a.id }, data: { isSpam: true } });
    // Many rows of several pages in one statement, both ways; an edit that changes no flag.
    await db.comment.updateMany({ where: { pageId: { in: [second.id, third.id] } }, data: { isPublished: true } });
    await db.comment.updateMany({ where: { pageId: second.id, parentCommentId: null }, data: { isSpam: true } });
    await db.comment.updateMany({ where: { pageId: third.id }, data: { body: { ops: [{ insert: "edited\n" }] } } });
    // A comment moved to another page; rows deleted, and a page deleted with its comments (cascade).
    const moved = (await tops(third.id))[0]!;
    await db.comment.updateMany({ where: { parentCommentId: moved.id }, data: { pageId: fourth.id } });
    await db.comment.update({ where: { id: moved.id }, data: { pageId: fourth.id } });
    await db.comment.deleteMany({ where: { pageId: third.id, parentCommentId: { not: null } } });
    await db.page.delete({ where: { id: second.id } });
    // Several rows inserted at once; a write rolled back counts nothing.
    const author = await db.member.findFirstOrThrow({ where: { accountId: account.id } });
    await db.comment.createMany({
      data: [first, fourth, first].map((page, i) => ({
        accountId: account.id,
        pageId: page.id,
        authorId: author.id,
        body: { ops: [{ insert: `many ${i}\n` }] },
        bodyDigest: `many-${i}`,
        ...(i === 2 ? { isPublished: false } : {}),
      })),
    });
    await withTransaction(db, async (tx) => {
      await tx.comment.updateMany({ where: { pageId: fourth.id }, data: { deletedAt: now } });
      throw new Error("rolled back");
    }).catch(() => undefined);
    // Twenty comments at once, on two pages.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.comment.create({
          data: {
            accountId: account.id,
            pageId: (i % 2 ? first : fourth).id,
            parentCommentId: i % 4 === 1 ? a.id : null,
            authorId: author.id,
            body: { ops: [{ insert: `at once ${i}\n` }] },
            bodyDigest: `at-once-${i}`,
          },
        }),
      ),
    );
    await expectCountsAsVisible(db, account.id, [first, third, fourth], other.pages[0]!);
    expect(await realmCommentCount(db, other.account.id)).toBe(
      await db.comment.count({ where: { accountId: other.account.id, ...VISIBLE } }),
    );
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
