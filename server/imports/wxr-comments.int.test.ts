/**
 * The comments of a WordPress export imported into an account, on PGlite and PostgreSQL, field by
 * field; bad input (a truncated file, bytes in the wrong encoding, an unknown source, a missing
 * file) through the command itself, with its report and exit code.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { describeImportConformance } from "@/server/testing/import-conformance";
import { FIXTURES, importAccount, importFixture, tableCounts } from "@/server/testing/imports";
import { createTestStaff } from "@/server/testing/staff";

import { importCommand } from "../../scripts/import/cli";

const HELLO = "https://news.example.com/2019/03/hello-world/";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-int-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function commentOf(db: Db, accountId: number, sourceId: string) {
  const record = await db.importRecord.findFirstOrThrow({
    where: { accountId, source: "wxr-comments", kind: "comment", sourceId },
  });
  return db.comment.findUniqueOrThrow({
    where: { id: Number(record.targetId) },
    include: { author: true, page: true },
  });
}

/** Run the command as the CLI does, capturing what it prints. */
async function command(db: Db, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const result = await importCommand(db, argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { ...result, out: out.join("\n"), err: err.join("\n") };
}

describe("importing the comments of a WordPress export", () => {
  it("lands them field by field: one member per reader known by an account or an e-mail", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const ada = await db.member.create({
      data: { accountId: account.id, name: "Ada", email: "ada@example.com", passwordHash: "-" },
    });
    const report = await importFixture(db, account.id, "wxr-comments", "wxr-sample.xml");
    expect(report.kinds).toEqual({
      page: { create: 2, update: 0, skip: 0, refuse: 1 },
      comment: { create: 10, update: 0, skip: 1, refuse: 1 },
      // Bob (a visitor with an e-mail), Carol, Dan, Hanako; Ada linked; Pills wrote nothing but spam.
      member: { create: 5, update: 1, skip: 0, refuse: 0 },
    });
    expect(report.lines.refuse.map((l) => `${l.kind} ${l.sourceId}: ${l.reason}`)).toEqual([
      "page 40: it has no link: its 1 comment(s) cannot be placed",
      "comment 400: its thread 40 was not imported (see that thread's line)",
    ]);
    expect(report.lines.skip.map((l) => `${l.sourceId}: ${l.reason}`)).toEqual([
      "109: a pingback, not a reader's comment",
    ]);

    const first = await commentOf(db, account.id, "100");
    expect(first).toMatchObject({
      authorId: ada.id,
      parentCommentId: null,
      createdAt: new Date("2019-03-04T13:00:00Z"),
      isPublished: true,
      guest: false,
    });
    expect(first.page).toMatchObject({ url: HELLO, headline: "Hello world" });
    expect(first.body).toEqual({
      ops: [
        { insert: "Great post!\nA second line, and a " },
        { attributes: { link: "https://example.org/more" }, insert: "link" },
        { insert: ".\n\nA new paragraph with bold & café.\n" },
      ],
    });
    // Ada, registered in WordPress as user 3, under two spellings: the member who signed up.
    expect((await commentOf(db, account.id, "105")).authorId).toBe(ada.id);
    expect(
      await db.memberIdentity.findMany({ where: { memberId: ada.id }, select: { provider: true, externalId: true } }),
    ).toEqual([{ provider: "wordpress", externalId: "3" }]);
    // A visitor without an account is the reader of the e-mail they gave, the address kept.
    const visitor = await commentOf(db, account.id, "101");
    expect(visitor).toMatchObject({ guest: false, guestName: null, parentCommentId: first.id });
    expect(visitor.author).toMatchObject({
      email: "bob@visitor.example",
      name: "Bob the Visitor",
      source: "wordpress",
    });
    // Five deep, depth three listed before depth two: all under the first, their parents recorded
    // and kept as reply_to_id (103's set when 102, listed after it, is written).
    for (const [id, parent] of [
      ["102", "101"],
      ["103", "102"],
      ["104", "103"],
      ["105", "104"],
    ] as const) {
      const reply = await commentOf(db, account.id, id);
      expect(reply.parentCommentId).toBe(first.id);
      expect(reply.replyToId).toBe((await commentOf(db, account.id, parent)).id);
      expect(
        (await db.importRecord.findFirstOrThrow({ where: { kind: "comment", sourceId: id } })).sourceParentId,
      ).toBe(parent);
    }
    // Pending (its GMT date WordPress's zero: the local date), spam, trash.
    expect(await commentOf(db, account.id, "106")).toMatchObject({
      isPublished: false,
      moderationState: "UNDECIDED",
      createdAt: new Date("2019-03-05T09:00:00Z"),
    });
    expect(await commentOf(db, account.id, "107")).toMatchObject({
      isSpam: true,
      isPublished: false,
      moderationState: "SPAM",
      guest: true,
    });
    expect(await commentOf(db, account.id, "108")).toMatchObject({ deletedAt: new Date("2019-03-05T11:00:00Z") });
    const hanako = await commentOf(db, account.id, "200");
    expect(hanako.body).toEqual({ ops: [{ insert: "素晴らしいページです。\nありがとう！\n" }] });
    expect(hanako.page).toMatchObject({ url: "https://news.example.com/a-propos/", headline: "À propos — 日本語" });
    expect(hanako.author).toMatchObject({ name: "Hanako Yamada", email: "hanako@example.jp", source: "wordpress" });
    expect(await db.webhookEvent.count()).toBe(0);
  });
});

describeImportConformance("wxr-comments", {
  file: "wxr-sample.xml",
  account: (db) => importAccount(db),
  again: { comment: { create: 0, update: 0, skip: 11, refuse: 1 } },
  resume: { stopAts: [2, 6], batchSize: 3 },
});

describe("npm run import", () => {
  it("refuses whole, with code 1 and the line, a truncated file or one with bytes not in its encoding", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const text = fs.readFileSync(path.join(FIXTURES, "disqus-sample.xml"));
    const truncated = path.join(tmp, "truncated.xml");
    fs.writeFileSync(truncated, text.subarray(0, text.indexOf("Depth four.")));
    const at = text.indexOf("Depth two.");
    const latin1 = path.join(tmp, "latin1-inside.xml");
    fs.writeFileSync(
      latin1,
      Buffer.concat([text.subarray(0, at), Buffer.from("Caf\xe9 ", "latin1"), text.subarray(at)]),
    );
    const before = await tableCounts(db);
    const cut = await command(db, ["--from", "disqus", truncated, "--account", account.slug]);
    expect(cut).toMatchObject({ code: 1, out: "" });
    expect(cut.err).toMatch(
      /^truncated\.xml is not well-formed XML: line \d+: the file ends before <\/disqus>, inside the <post> of line \d+: it was cut off\./,
    );
    const wrong = await command(db, ["--from", "disqus", latin1, "--account", account.slug]);
    expect(wrong).toMatchObject({ code: 1, out: "" });
    const line = text.subarray(0, at).toString("utf8").split("\n").length;
    expect(wrong.err).toMatch(
      new RegExp(
        `^latin1-inside\\.xml is not in the encoding it uses \\(utf-8\\): line ${line}, column \\d+ holds bytes that do not decode`,
      ),
    );
    expect(await tableCounts(db)).toEqual(before);
  });

  it("stops with one line and a non-zero code when the file cannot be read, and 2 for a wrong command", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const missing = await command(db, ["--from", "disqus", path.join(tmp, "nope.xml"), "--account", account.slug]);
    expect(missing).toMatchObject({ code: 1, out: "" });
    expect(missing.err).toMatch(/^Cannot read .*nope\.xml: no such file\.$/);
    const wrong = await command(db, [
      "--from",
      "disqus",
      path.join(FIXTURES, "wxr-sample.xml"),
      "--account",
      account.slug,
    ]);
    // The file by its own name, not the folder it is in (docs/migration.md, "Bad input").
    expect(wrong.err).toBe("wxr-sample.xml is not a Disqus export: its root element is <rss>, not <disqus>.");
    expect(wrong.code).toBe(1);
    const unknown = await command(db, ["--from", "livefyre", "x.xml"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err.split("\n")[0]).toMatch(
      /^Unknown source "livefyre": use one of disqus, wxr-comments(, [a-z0-9-]+)*\.$/,
    );
    expect(await db.importRun.count()).toBe(0);
  });

  it("records the owner who ran it (--actor) and refuses anyone else", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const owner = await createTestStaff(db, { account: account.id, roles: ["OWNER"] });
    const editor = await createTestStaff(db, { account: account.id, roles: ["EDITOR"] });
    const file = path.join(FIXTURES, "disqus-sample.xml");
    const refused = await command(db, ["--from", "disqus", file, "--actor", editor.user.email]);
    expect(refused).toMatchObject({ code: 1, err: `${editor.user.email} is not an owner: only owners import.` });
    const done = await command(db, ["--from", "disqus", file, "--actor", owner.user.email.toUpperCase()]);
    expect(done.code).toBe(0);
    const run = await db.importRun.findFirstOrThrow();
    expect(run.actorId).toBe(owner.user.id);
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "import.finished" } });
    expect(audit.actorId).toBe(owner.user.id);
  });
});
