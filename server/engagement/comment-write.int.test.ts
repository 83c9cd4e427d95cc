/**
 * A create's counts come with its write (comment-write.ts: read in the write statement as its
 * snapshot had them, plus the new comment, comment-queries.ts countsAfterCreate). For every state
 * of the comment replied to and every outcome of moderation, they equal the counts read afresh
 * after the write and Prisma's count of VISIBLE; a repeat writes nothing and carries no counts.
 */
import { randomUUID } from "node:crypto";

import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import type { Comment, Page } from "@/server/generated/prisma/client";
import { createTestPublisher } from "@/server/testing/publishing-factories";

import { pageAndRealmCounts } from "./comment-queries";
import { NEW_COMMENT, writeComment } from "./comment-write";
import { VISIBLE } from "./comments";

type Written = Awaited<ReturnType<typeof writeComment>>;

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const members = await Promise.all(
    ["Ada", "Bo", "Cy"].map((name, i) =>
      db.member.create({
        data: { accountId: account.id, name, email: `${name.toLowerCase()}${i}@example.com`, passwordHash: "-" },
      }),
    ),
  );
  return { db, accountId: account.id, members: members.map((m) => m.id) };
}

function write(db: Db, page: Page, authorId: number, over: Partial<Comment> = {}): Promise<Written> {
  const now = new Date();
  const comment: Comment = {
    id: 0,
    accountId: page.accountId,
    pageId: page.id,
    parentCommentId: null,
    replyToId: null,
    authorId,
    body: { ops: [{ insert: "A comment.\n" }] },
    bodyDigest: randomUUID(),
    confidential: false,
    guest: false,
    guestName: null,
    mobile: false,
    isPublished: true,
    isSpam: false,
    toxicity: 0,
    moderationReasons: [],
    ...NEW_COMMENT,
    createdAt: now,
    ...over,
  };
  return writeComment(db, { comment, page, captcha: null, repeatsSince: new Date(now.getTime() - 10_000) });
}

function idOf(written: Written): number {
  if (!("id" in written)) throw new Error("nothing was written");
  return written.id;
}

/** The counts a write carries (it fails when nothing was written). */
function countsOf(written: Written) {
  if (!("counts" in written)) throw new Error("nothing was written");
  return written.counts;
}

/** A moderator's or its author's mark on a comment. */
type State = Partial<Pick<Comment, "isPublished" | "isSpam" | "hiddenAt" | "deletedAt">>;

/** The comment replied to, as a moderator or its author may have left it (null: a top-level comment). */
const PARENTS = {
  "top-level": null,
  visible: {},
  "visible, with a visible reply": { reply: true },
  hidden: { hiddenAt: new Date() },
  "hidden, with a visible reply": { hiddenAt: new Date(), reply: true },
  "deleted, with a visible reply": { deletedAt: new Date(), reply: true },
  held: { isPublished: false },
  "held, with a reply": { isPublished: false, reply: true },
  spam: { isSpam: true, isPublished: false },
} satisfies Record<string, (State & { reply?: boolean }) | null>;

/** What moderation made of the new comment. */
const OUTCOMES = {
  published: {},
  held: { isPublished: false },
  spam: { isSpam: true, isPublished: false },
} satisfies Record<string, State>;

describe("a create's counts, read with its write", () => {
  it("equal the counts read afresh after it, for every parent and every moderation outcome", async () => {
    const { db, accountId, members } = await setup();
    const [ada, bo, cy] = members as [number, number, number];
    let n = 0;
    for (const [parentName, parentState] of Object.entries(PARENTS)) {
      for (const [outcome, own] of Object.entries(OUTCOMES)) {
        const label = `${outcome} reply to: ${parentName}`;
        const page = await db.page.create({ data: { accountId, url: `https://news.example.com/${n++}` } });
        // Something on the page already: a visible comment and a held one.
        await write(db, page, cy);
        await write(db, page, cy, { isPublished: false });
        let parentCommentId: number | null = null;
        if (parentState) {
          const { reply, ...state }: State & { reply?: boolean } = parentState;
          parentCommentId = idOf(await write(db, page, bo));
          if (reply) await write(db, page, cy, { parentCommentId });
          await db.comment.update({ where: { id: parentCommentId }, data: state });
        }
        const counts = countsOf(await write(db, page, ada, { parentCommentId, ...own }));
        expect(counts, label).toEqual(await pageAndRealmCounts(db, accountId, page.id));
        expect(counts.stats?.total ?? 0, label).toBe(
          await db.comment.count({ where: { pageId: page.id, ...VISIBLE } }),
        );
        expect(counts.realm, label).toBe(await db.comment.count({ where: { accountId, ...VISIBLE } }));
      }
    }
  });

  it("written at once by many readers, each counts what was there when it arrived, and itself", async () => {
    const { db, accountId } = await setup();
    const readers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.member.create({ data: { accountId, name: `R${i}`, email: `r${i}@example.com`, passwordHash: "-" } }),
      ),
    );
    const page = await db.page.create({ data: { accountId, url: "https://news.example.com/busy" } });
    await write(db, page, readers[0]!.id);
    const written = await Promise.all(readers.map((r) => write(db, page, r.id)));
    const after = await pageAndRealmCounts(db, accountId, page.id);
    expect(after.stats?.total).toBe(1 + readers.length);
    for (const w of written) {
      const { stats, realm } = countsOf(w);
      // At least the comment before them and itself; at most everything written by the end.
      expect(stats!.total).toBeGreaterThanOrEqual(2);
      expect(stats!.total).toBeLessThanOrEqual(after.stats!.total);
      expect(stats!.parents).toBe(stats!.total);
      expect(realm).toBe(stats!.total);
    }
  });

  it("count the first comment of a page, and a repeat writes nothing and carries none", async () => {
    const { db, accountId, members } = await setup();
    const page = await db.page.create({ data: { accountId, url: "https://news.example.com/first" } });
    const first = await write(db, page, members[0]!, { bodyDigest: "same" });
    expect(first).toEqual({
      id: expect.any(Number) as number,
      counts: { stats: { total: 1, parents: 1, placeholders: 0 }, realm: 1 },
    });
    expect(await write(db, page, members[0]!, { bodyDigest: "same" })).toEqual({ repeatOf: idOf(first) });
    // A held first comment leaves the page without visible comments: no stats, as read afresh.
    const other = await db.page.create({ data: { accountId, url: "https://news.example.com/held" } });
    const held = await write(db, other, members[1]!, { isPublished: false });
    expect(countsOf(held)).toEqual({ stats: undefined, realm: 1 });
    expect(countsOf(held)).toEqual(await pageAndRealmCounts(db, accountId, other.id));
  });
});
