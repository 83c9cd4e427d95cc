/**
 * Story authors of content imports are one person whichever name a file gives them, on PGlite and
 * PostgreSQL: found by e-mail first (as Masthead keeps e-mails), then by their id in the old
 * system (the same source's earlier run), then by slug.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { contentImportAccount, importedStory, importFixture } from "@/server/testing/imports";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-authors-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Person = { id: string; login: string; email: string; name: string };

/** A WXR file (the shape of the WordPress importer's test data) of one post per author. */
function wxr(name: string, base: number, people: Person[]): string {
  const author = (p: Person) =>
    `<wp:author><wp:author_id>${p.id}</wp:author_id><wp:author_login><![CDATA[${p.login}]]></wp:author_login><wp:author_email><![CDATA[${p.email}]]></wp:author_email><wp:author_display_name><![CDATA[${p.name}]]></wp:author_display_name></wp:author>`;
  const item = (p: Person, i: number) => `<item><title>Post by ${p.login}</title>
    <link>https://news.example.com/${name}-${i}/</link><dc:creator><![CDATA[${p.login}]]></dc:creator>
    <content:encoded><![CDATA[<p>Text ${i}.</p>]]></content:encoded><wp:post_id>${base + i}</wp:post_id>
    <wp:post_date_gmt>2020-01-0${i + 1} 10:00:00</wp:post_date_gmt><wp:post_name>${name}-${i}</wp:post_name>
    <wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>`;
  const file = path.join(tmp, `${name}.xml`);
  fs.writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>T</title><link>https://news.example.com</link><wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>https://news.example.com</wp:base_site_url><wp:base_blog_url>https://news.example.com</wp:base_blog_url>
${people.map(author).join("\n")}
${people.map(item).join("\n")}
</channel></rss>`,
  );
  return file;
}

const authorOf = async (db: Db, accountId: number, postId: string) =>
  (await importedStory(db, accountId, "wxr", postId)).authors.map((a) => a.authorId);

describe("the authors of content imports", () => {
  it("are found by e-mail, then by the old system's id, then by slug: one person, one author", async () => {
    const db = await getDb();
    const account = await contentImportAccount(db);
    const jane = await db.author.create({
      data: { accountId: account.id, name: "Jane Doe", slug: "jane-doe", email: "Jane@Example.com" },
    });
    const sam = await db.author.create({ data: { accountId: account.id, name: "Sam", slug: "sam" } });

    // WordPress's "admin" with Jane's address is Jane; "sam" (another address) is Sam by slug.
    const first = await importFixture(
      db,
      account.id,
      "wxr",
      wxr("first", 100, [
        { id: "1", login: "admin", email: " jane@example.COM", name: "Administrator" },
        { id: "2", login: "sam", email: "sam@example.org", name: "Sam S." },
      ]),
    );
    expect(await authorOf(db, account.id, "100")).toEqual([jane.id]);
    expect(await authorOf(db, account.id, "101")).toEqual([sam.id]);
    expect(first.kinds.author ?? { create: 0 }).toMatchObject({ create: 0 });
    expect(first.notes).toContain(
      'author admin "Administrator" is author jane-doe (#' + jane.id + "), by the e-mail jane@example.com",
    );
    expect(await db.author.count({ where: { accountId: account.id } })).toBe(2);

    // A later export of the same site: "admin" renamed "editor" with a new address is still
    // Jane (by the login recorded), and Sam's address (recorded) finds Sam under a new login.
    await importFixture(
      db,
      account.id,
      "wxr",
      wxr("second", 200, [
        { id: "1", login: "admin", email: "editor@example.net", name: "The Editor" },
        { id: "3", login: "ssmith", email: "sam@example.org", name: "Sam Smith" },
        { id: "4", login: "newbie", email: "new@example.org", name: "Newbie" },
      ]),
    );
    expect(await authorOf(db, account.id, "200")).toEqual([jane.id]);
    expect(await authorOf(db, account.id, "201")).toEqual([sam.id]);
    const newbie = await db.author.findFirstOrThrow({ where: { accountId: account.id, slug: "newbie" } });
    expect(await authorOf(db, account.id, "202")).toEqual([newbie.id]);
    expect(await db.author.count({ where: { accountId: account.id } })).toBe(3);
  });
});
