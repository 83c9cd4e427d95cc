/**
 * Who the comments of a WordPress export are by, on PGlite and PostgreSQL (fixture
 * wxr-people.xml): visitors with an e-mail are the reader of that e-mail, staff replies the staff
 * person's member (whatever the comment form held), visitors without an e-mail guests, authors who
 * wrote nothing but spam no members; the post's author replying is the page's author.
 */
import { describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { listComments } from "@/server/engagement/comment-list";
import { encodePageId } from "@/server/engagement/pages";
import { importAccount, importFixture, importSnapshot } from "@/server/testing/imports";

async function commentOf(db: Db, accountId: number, sourceId: string) {
  const record = await db.importRecord.findFirstOrThrow({
    where: { accountId, source: "wxr-comments", kind: "comment", sourceId },
  });
  return db.comment.findUniqueOrThrow({ where: { id: Number(record.targetId) }, include: { author: true } });
}

const identitiesOf = (db: Db, memberId: number) =>
  db.memberIdentity.findMany({ where: { memberId }, select: { provider: true, externalId: true } });

describe("the authors of a WordPress export's comments", () => {
  it("are the readers of their e-mails, the staff's members, guests, and no member for spam alone", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    // The file's staff address is a dashboard user's.
    await db.adminUser.create({
      data: {
        accountId: account.id,
        email: "editor@news.example.com",
        name: "Eddie Editor",
        passwordHash: "unused",
        roles: ["EDITOR"],
      },
    });
    const report = await importFixture(db, account.id, "wxr-comments", "wxr-people.xml");
    expect(report.kinds.comment).toEqual({ create: 11, update: 0, skip: 0, refuse: 0 });
    // Vera, the staff admin (made by the visitor typing their address: a top-level comment, read
    // before the replies; then linked to wordpress:1), themedemos, Mixed, and the account's guest
    // member (for Pills, the nameless and the "admin" visitors).
    expect(report.kinds.member).toEqual({ create: 5, update: 1, skip: 0, refuse: 0 });

    // A visitor with an e-mail: the reader of that address, under both spellings.
    const vera = await commentOf(db, account.id, "1");
    expect(vera).toMatchObject({ guest: false, guestName: null });
    expect(vera.author).toMatchObject({ name: "Vera", email: "vera@example.org", source: "wordpress" });
    expect((await commentOf(db, account.id, "3")).authorId).toBe(vera.authorId);
    expect(await identitiesOf(db, vera.authorId)).toEqual([]);

    // A staff reply: the staff person's e-mail and name, not the form's admin@localhost.
    const staff = await commentOf(db, account.id, "2");
    expect(staff).toMatchObject({ guest: false });
    expect(staff.author).toMatchObject({ name: "The Editor", email: "editor@news.example.com" });
    expect(await identitiesOf(db, staff.authorId)).toEqual([{ provider: "wordpress", externalId: "1" }]);
    expect(await db.member.count({ where: { accountId: account.id, email: "admin@localhost" } })).toBe(0);
    // The staff address typed by a visitor is the same person.
    expect((await commentOf(db, account.id, "5")).authorId).toBe(staff.authorId);
    expect(report.notes).toContain(
      "WordPress user admin is the site's staff: their comments are the member editor@news.example.com's, the e-mail of dashboard user Eddie Editor, not a reader account of their own",
    );

    // A staff person listed without an id (WordPress.com): by the login, their own e-mail and name.
    const demos = await commentOf(db, account.id, "4");
    expect(demos.author).toMatchObject({ name: "Theme Buster", email: "demos@example.com" });
    expect(await identitiesOf(db, demos.authorId)).toEqual([{ provider: "wordpress", externalId: "24783058" }]);

    // Visitors without an e-mail are guests with their name, "admin" too.
    expect(await commentOf(db, account.id, "6")).toMatchObject({ guest: true, guestName: "Nameless" });
    expect(await commentOf(db, account.id, "11")).toMatchObject({ guest: true, guestName: "admin" });

    // Nothing but spam: kept as spam, by a guest; no member, no address.
    for (const id of ["7", "8"]) {
      expect(await commentOf(db, account.id, id)).toMatchObject({
        guest: true,
        guestName: "Pills",
        isSpam: true,
        isPublished: false,
        moderationState: "SPAM",
      });
    }
    expect(await db.member.count({ where: { email: "pills@spam.example" } })).toBe(0);
    expect(report.notes).toContain(
      "1 author(s) wrote nothing but spam (2 comment(s)): they are not made members; their comments are kept as spam, by a guest under the name given, their addresses not kept",
    );
    // Spam and a real comment: a reader, whose spam stays spam.
    const mixedSpam = await commentOf(db, account.id, "9");
    expect(mixedSpam).toMatchObject({ guest: false, isSpam: true });
    expect(mixedSpam.author.email).toBe("mixed@example.org");
    expect((await commentOf(db, account.id, "10")).authorId).toBe(mixedSpam.authorId);

    // Replies four deep: under the top-level comment, each answering the one before (reply_to_id).
    const ids = new Map<string, number>();
    for (const id of ["1", "2", "3", "4"]) ids.set(id, (await commentOf(db, account.id, id)).id);
    for (const [id, answered] of [
      ["2", "1"],
      ["3", "2"],
      ["4", "3"],
    ] as const) {
      const reply = await commentOf(db, account.id, id);
      expect(reply.parentCommentId).toBe(ids.get("1"));
      // A direct reply to its parent needs no other: reply_to_id is the parent (the API answers so).
      expect(reply.replyToId).toBe(answered === "1" ? null : ids.get(answered));
    }

    // The post's author (dc:creator admin, WordPress user 1) replying is the page's author, as
    // WordPress marks them; another staff person, or a visitor typing the author's address, is not.
    expect(staff.pageAuthor).toBe(true);
    for (const id of ["1", "4", "5"]) expect((await commentOf(db, account.id, id)).pageAuthor).toBe(false);
    const page = await db.page.findUniqueOrThrow({ where: { id: staff.pageId } });
    const list = await listComments(db, {
      accountId: account.id,
      encodedUrl: encodePageId(page.url),
      query: {
        parent_comments_limit: 20,
        parent_comments_offset: 0,
        sort_order: "oldest",
        child_comments_sort_order: "oldest",
      },
    });
    const wired = list.comments.flatMap((c) => [c, ...(c.replies ?? [])]);
    expect(wired.filter((c) => c.is_page_author).map((c) => c.id)).toEqual([staff.id]);

    // A second run changes nothing.
    const before = await importSnapshot(db, account.id);
    const again = await importFixture(db, account.id, "wxr-comments", "wxr-people.xml");
    expect(again.kinds.member).toEqual({ create: 0, update: 0, skip: 0, refuse: 0 });
    expect(await importSnapshot(db, account.id)).toEqual(before);
  });
});
