/**
 * The engagement benchmark's seed (small sizes): readers and writers with their JWT identities,
 * the big page's comments, replies and reactions on the publication's host; a rerun creates
 * nothing again and removes what the writers posted.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { VISIBLE } from "@/server/engagement/comments";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { seedLargeEngagement } from "./large-engagement";

const sizes = { readers: 40, writers: 5, bigPageTopLevel: 60, bigPageReplies: 15, countPages: 6 };

describe("seedLargeEngagement", () => {
  it("seeds the pages, comments, replies, reactions and readers once, and removes the writers' posts", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db, { domain: "news.example.com" });
    const args = { accountId: account.id, appUrl: "http://127.0.0.1:3000", sizes };

    const first = await seedLargeEngagement(db, args);
    expect(first.created).toBe(true);
    expect(first.host).toBe("news.example.com");
    expect(first.bigPage).toBe("https://news.example.com/bench/engagement/big");
    expect(first.countPages).toHaveLength(6);
    expect(first.bigPageComments).toBe(60 + 15);
    expect(first.writerIds).toEqual([
      "bench-writer-0001",
      "bench-writer-0002",
      "bench-writer-0003",
      "bench-writer-0004",
      "bench-writer-0005",
    ]);

    const big = await db.page.findUniqueOrThrow({
      where: { accountId_url: { accountId: account.id, url: first.bigPage } },
    });
    const replies = await db.comment.findMany({
      where: { pageId: big.id, parentCommentId: { not: null } },
      include: { parent: true },
    });
    expect(replies).toHaveLength(15);
    // Replies are of listed top-level comments of the same page.
    for (const r of replies) {
      expect(r.parent).toMatchObject({ pageId: big.id, parentCommentId: null, isPublished: true, isSpam: false });
    }
    expect(await db.comment.count({ where: { pageId: big.id, isPublished: false } })).toBeGreaterThan(0);
    expect(await db.commentReaction.count({ where: { comment: { pageId: big.id } } })).toBeGreaterThan(0);
    expect(await db.comment.count({ where: { accountId: account.id, ...VISIBLE } })).toBeGreaterThan(60);
    // Every reader and writer is a member with its publisher identity; writers carry the JWT name.
    expect(await db.memberIdentity.count({ where: { accountId: account.id, provider: "publisher" } })).toBe(45);
    const writer = await db.memberIdentity.findUniqueOrThrow({
      where: {
        accountId_provider_externalId: {
          accountId: account.id,
          provider: "publisher",
          externalId: "bench-writer-0002",
        },
      },
      include: { member: true },
    });
    expect(writer.member.name).toBe("Writer 2");

    // A writer's post (as the create scenario makes) is removed by the next run; nothing doubles.
    const page = await db.page.findUniqueOrThrow({
      where: { accountId_url: { accountId: account.id, url: first.countPages[0]! } },
    });
    await db.comment.create({
      data: { accountId: account.id, pageId: page.id, authorId: writer.memberId, body: { ops: [] }, bodyDigest: "x" },
    });
    const total = await db.comment.count({ where: { accountId: account.id } });
    const second = await seedLargeEngagement(db, args);
    expect(second).toMatchObject({ created: false, removed: 1, bigPageComments: 75 });
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(total - 1);
  });
});
