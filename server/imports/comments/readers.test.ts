import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { ImportFileError } from "../types";
import { DISQUS_READER } from "./disqus";
import { IN_LOOP, indexCommentFile, MISSING_PARENT, NO_PARENT, rootsOf } from "./index-pass";
import { guestNameOf, normaliseEmail, parseExportDate, type CommentRecord } from "./records";
import { WXR_READER, wxrState } from "./wxr";

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures");
const fixture = (name: string) => path.join(FIXTURES, name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "import-readers-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function writeTmp(name: string, content: string | Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
}

async function readAll(reader: typeof DISQUS_READER, file: string): Promise<CommentRecord[]> {
  const out: CommentRecord[] = [];
  for await (const record of reader.read(file, () => undefined)) out.push(record);
  return out;
}

const posts = (records: CommentRecord[]) => records.flatMap((r) => (r.type === "post" ? [r.post] : []));
const threads = (records: CommentRecord[]) => records.flatMap((r) => (r.type === "thread" ? [r.thread] : []));
const problems = (records: CommentRecord[]) => records.flatMap((r) => (r.type === "problem" ? [r.problem] : []));

describe("the Disqus reader", () => {
  it("reads threads and posts with every field", async () => {
    const records = await readAll(DISQUS_READER, fixture("disqus-sample.xml"));
    expect(records[0]).toEqual({ type: "root", name: "disqus" });
    expect(threads(records).map((t) => t.sourceId)).toEqual(["1001", "1002", "1003", "1004", "1005"]);
    expect(threads(records)[0]).toMatchObject({
      url: "https://NEWS.example.com/2019/01/hello?utm_source=newsletter&b=2&a=1#comments",
      title: "Hello, readers",
      createdAt: new Date("2019-01-10T08:00:00Z"),
    });
    const all = posts(records);
    expect(all).toHaveLength(18);
    expect(all[0]).toMatchObject({
      sourceId: "5001",
      threadId: "1001",
      parentId: null,
      createdAt: new Date("2019-01-10T09:00:00Z"),
      state: "published",
      spam: false,
      author: { name: "Ada Lovelace", email: "Ada@Example.com", accountId: "ada_l", anonymous: false },
      errors: [],
    });
    expect(all[0]!.html).toContain('<a href="https://example.org/source?x=1&amp;y=2"');
    const byId = (id: string) => all.find((p) => p.sourceId === id)!;
    expect(byId("5004").parentId).toBe("5003");
    expect(byId("5009").state).toBe("deleted");
    expect(byId("5010")).toMatchObject({ state: "spam", spam: true });
    expect(byId("5011").author).toEqual({ name: "Anonymous Coward <3", email: null, accountId: null, anonymous: true });
    expect(byId("5014").state).toBe("held");
    expect(problems(records)).toEqual([]);
  });

  it("refuses whole a file whose DTD declares entities (XXE, billion laughs), expanding none", async () => {
    await expect(readAll(DISQUS_READER, fixture("disqus-xxe.xml"))).rejects.toThrow(
      /disqus-xxe\.xml is not well-formed XML: line \d+: its DTD declares entities/,
    );
    const laughs =
      '<?xml version="1.0"?>\n<!DOCTYPE disqus [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n<disqus><post dsq:id="1"><message>&lol2;</message></post></disqus>';
    await expect(readAll(DISQUS_READER, writeTmp("laughs.xml", laughs))).rejects.toThrow(
      /laughs\.xml is not well-formed XML: line 5: its DTD declares entities/,
    );
  });

  it("refuses whole a truncated file, naming the line where it ends and the post it ends in", async () => {
    const text = fs.readFileSync(fixture("disqus-sample.xml"), "utf8");
    const cut = text.indexOf("Depth four.");
    const line = text.slice(0, cut).split("\n").length;
    const postLine = text.slice(0, text.lastIndexOf("<post ", cut)).split("\n").length;
    await expect(readAll(DISQUS_READER, writeTmp("truncated.xml", text.slice(0, cut)))).rejects.toThrow(
      `truncated.xml is not well-formed XML: line ${line}: the file ends before </disqus>, inside the <post> of line ${postLine}: it was cut off.`,
    );
  });

  it("refuses whole a file with bytes its declared encoding cannot decode, and reads a Latin-1 file as Latin-1", async () => {
    const head =
      '<?xml version="1.0" encoding="utf-8"?>\n<disqus xmlns:dsq="http://disqus.com/disqus-internals"><thread dsq:id="1"><link>https://news.example.com/a</link></thread>\n';
    const post = (id: string, body: Buffer) =>
      Buffer.concat([
        Buffer.from(`<post dsq:id="${id}"><message>`),
        body,
        Buffer.from(`</message><createdAt>2020-01-01T00:00:00Z</createdAt><thread dsq:id="1"/></post>\n`),
      ]);
    const latin1 = Buffer.from("caf\xe9", "latin1");
    const wrong = writeTmp(
      "wrong.xml",
      Buffer.concat([
        Buffer.from(head),
        post("1", latin1),
        post("2", Buffer.from("fine \uFFFD")),
        Buffer.from("</disqus>"),
      ]),
    );
    await expect(readAll(DISQUS_READER, wrong)).rejects.toThrow(
      "wrong.xml is not in the encoding it uses (utf-8): line 3, column 30 holds bytes that do not decode.",
    );
    // A replacement character the file really holds is text like any other.
    const real = writeTmp(
      "real.xml",
      Buffer.concat([Buffer.from(head), post("2", Buffer.from("fine \uFFFD")), Buffer.from("</disqus>")]),
    );
    expect(posts(await readAll(DISQUS_READER, real))[0]).toMatchObject({ html: "fine \uFFFD", errors: [] });
    const declared = writeTmp(
      "latin1.xml",
      Buffer.concat([Buffer.from(head.replace("utf-8", "ISO-8859-1")), post("1", latin1), Buffer.from("</disqus>")]),
    );
    expect(posts(await readAll(DISQUS_READER, declared))[0]).toMatchObject({ html: "café", errors: [] });
  });

  it("reads a UTF-16 file by its byte-order mark", async () => {
    const text = fs.readFileSync(fixture("disqus-sample.xml"), "utf8").replace('encoding="utf-8"', 'encoding="utf-16"');
    const file = writeTmp("utf16.xml", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
    expect(posts(await readAll(DISQUS_READER, file))).toHaveLength(18);
  });

  it("cannot read a file that is missing, another format or not XML", async () => {
    const file = { path: path.join(tmp, "missing.xml"), name: "missing.xml" };
    await expect(indexCommentFile(DISQUS_READER, file)).rejects.toThrow(/Cannot read .*missing\.xml: no such file/);
    const wxr = { path: fixture("wxr-sample.xml"), name: "wxr-sample.xml" };
    await expect(indexCommentFile(DISQUS_READER, wxr)).rejects.toThrow(
      "wxr-sample.xml is not a Disqus export: its root element is <rss>, not <disqus>.",
    );
    const junk = { path: writeTmp("junk.xml", "this is not XML at all"), name: "junk.xml" };
    await expect(indexCommentFile(DISQUS_READER, junk)).rejects.toThrow(ImportFileError);
    const odd = { path: writeTmp("odd.xml", '<?xml version="1.0" encoding="x-unknown-9"?><disqus/>'), name: "odd.xml" };
    await expect(indexCommentFile(DISQUS_READER, odd)).rejects.toThrow(/encoding "x-unknown-9" cannot be read/);
  });

  it("reads dsq:id by its namespace, under any prefix, and not a dsq prefix bound elsewhere", async () => {
    const file = writeTmp(
      "disqus-prefixes.xml",
      `<?xml version="1.0" encoding="utf-8"?>
<disqus xmlns="http://disqus.com" xmlns:internals="http://disqus.com/disqus-internals" xmlns:dsq="http://example.com/not-disqus">
<thread internals:id="1"><link>https://news.example.com/a</link></thread>
<thread dsq:id="2"><link>https://news.example.com/b</link></thread>
<post internals:id="10"><message>Read</message><createdAt>2020-01-01T00:00:00Z</createdAt><thread internals:id="1"/></post>
<post xmlns:x="http://disqus.com/disqus-internals" x:id="11"><message>Read too</message><createdAt>2020-01-01T00:00:00Z</createdAt><thread x:id="1"/><parent dsq:id="10"/></post>
</disqus>
`,
    );
    const records = await readAll(DISQUS_READER, file);
    expect(threads(records).map((t) => t.sourceId)).toEqual(["1"]);
    expect(problems(records)).toEqual([{ where: "line 4", message: "a <thread> without dsq:id is left out" }]);
    expect(posts(records).map((p) => [p.sourceId, p.threadId, p.parentId])).toEqual([
      ["10", "1", null],
      ["11", "1", null],
    ]);
  });
});

describe("the WXR reader", () => {
  it("reads the comments of each item that has some, as threads at the item's link", async () => {
    const records = await readAll(WXR_READER, fixture("wxr-sample.xml"));
    expect(threads(records)).toEqual([
      {
        sourceId: "10",
        url: "https://news.example.com/2019/03/hello-world/",
        title: "Hello world",
        createdAt: null,
        identifier: "10",
        closed: false,
        line: expect.any(Number) as number,
      },
      {
        sourceId: "20",
        url: "https://news.example.com/a-propos/",
        title: "À propos — 日本語",
        createdAt: null,
        identifier: "20",
        closed: false,
        line: expect.any(Number) as number,
      },
      {
        sourceId: "40",
        url: null,
        title: "A draft without a link",
        createdAt: null,
        identifier: "40",
        closed: false,
        line: expect.any(Number) as number,
      },
    ]);
    const all = posts(records);
    expect(all.map((p) => p.sourceId)).toEqual([
      "100",
      "101",
      "103",
      "102",
      "104",
      "105",
      "106",
      "107",
      "108",
      "109",
      "200",
      "400",
    ]);
    expect(all[0]).toMatchObject({
      threadId: "10",
      parentId: null,
      createdAt: new Date("2019-03-04T13:00:00Z"),
      state: "published",
      newlines: "text",
      author: { name: "Ada Lovelace", email: "ADA@example.com", accountId: "3", anonymous: false },
      skip: null,
    });
    const byId = (id: string) => all.find((p) => p.sourceId === id)!;
    // Ada is the staff person <wp:author> 3; Bob a visitor, known by the e-mail he gave.
    expect(all[0]!.author.staff).toEqual({ login: "ada", name: "Ada Lovelace", email: "ada@example.com" });
    expect(byId("101").author).toMatchObject({ accountId: null, anonymous: false, staff: null });
    expect(byId("106")).toMatchObject({ state: "held", createdAt: new Date("2019-03-05T09:00:00Z") });
    expect(byId("107").state).toBe("spam");
    expect(byId("108").state).toBe("deleted");
    expect(byId("109").skip).toBe("a pingback, not a reader's comment");
  });

  it("finds the staff person of a comment by e-mail, user id, then login (registered users only)", async () => {
    // As WordPress.com writes them (the theme unit test data): no <wp:author_id>, staff replying as
    // a user id the list does not name; the login the comment's name.
    const comment = (id: string, author: string, email: string, user: string) =>
      `<wp:comment><wp:comment_id>${id}</wp:comment_id><wp:comment_author>${author}</wp:comment_author>
      <wp:comment_author_email>${email}</wp:comment_author_email><wp:comment_date_gmt>2020-01-01 00:00:00</wp:comment_date_gmt>
      <wp:comment_content>Hi</wp:comment_content><wp:comment_approved>1</wp:comment_approved>
      <wp:comment_parent>0</wp:comment_parent><wp:comment_user_id>${user}</wp:comment_user_id></wp:comment>`;
    const file = writeTmp(
      "staff.xml",
      `<?xml version="1.0"?><rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
      <wp:author><wp:author_login>themedemos</wp:author_login><wp:author_email>Demos@Example.com</wp:author_email>
        <wp:author_display_name>Theme Buster</wp:author_display_name></wp:author>
      <wp:author><wp:author_id>2</wp:author_id><wp:author_login>admin</wp:author_login>
        <wp:author_email>editor@example.com</wp:author_email></wp:author>
      <item><link>https://example.com/a/</link><wp:post_id>1</wp:post_id>
      ${comment("1", "themedemos", "", "24783058")}
      ${comment("2", "Someone", "admin@localhost", "2")}
      ${comment("3", "A visitor", " demos@example.com\n", "0")}
      ${comment("4", "admin", "troll@example.org", "0")}
      ${comment("5", "Reader", "reader@example.org", "9")}
      </item></channel></rss>`,
    );
    const read = posts(await readAll(WXR_READER, file));
    expect(read.map((p) => p.author.staff?.login ?? null)).toEqual(["themedemos", "admin", "themedemos", null, null]);
    // No <dc:creator>: no comment is the post author's.
    expect(read.map((p) => p.pageAuthor)).toEqual([false, false, false, false, false]);
    // The post's author (dc:creator, any case) signed in: the page author's; a visitor typing their address is not.
    const authored = writeTmp(
      "authored.xml",
      fs
        .readFileSync(file, "utf8")
        .replace("<rss ", '<rss xmlns:dc="http://purl.org/dc/elements/1.1/" ')
        .replace("<link>", "<dc:creator>ThemeDemos</dc:creator><link>"),
    );
    expect(posts(await readAll(WXR_READER, authored)).map((p) => p.pageAuthor)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    // A file that lists no staff (as isso's wordpress.xml): the signed-in user named as the post's creator.
    const unlisted = writeTmp(
      "unlisted.xml",
      `<?xml version="1.0"?><rss xmlns:wp="http://wordpress.org/export/1.1/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel><wp:wxr_version>1.1</wp:wxr_version><item><link>https://example.com/b/</link>
      <dc:creator><![CDATA[Tester]]></dc:creator><wp:post_id>2</wp:post_id>
      ${comment("1", "Tester", "info@example.org", "1")}${comment("2", "Tester", "info@example.org", "0")}
      ${comment("3", "Someone", "s@example.org", "2")}</item></channel></rss>`,
    );
    expect(posts(await readAll(WXR_READER, unlisted)).map((p) => p.pageAuthor)).toEqual([true, false, false]);
  });

  it("maps comment_approved", () => {
    expect(["1", "0", "spam", "trash", "post-trashed", "weird"].map(wxrState)).toEqual([
      "published",
      "held",
      "spam",
      "deleted",
      "deleted",
      "held",
    ]);
  });

  it("reads WXR names by namespace URI, not by prefix (wxr-namespaces.xml)", async () => {
    const records = await readAll(WXR_READER, fixture("wxr-namespaces.xml"));
    // The last post id of an item wins; an item whose wp prefix is bound elsewhere has no comments here.
    expect(threads(records).map((t) => [t.sourceId, t.url])).toEqual([
      ["91", "https://news.example.com/prefixes/"],
      ["92", "https://news.example.com/default/"],
    ]);
    expect(posts(records).map((p) => [p.sourceId, p.threadId, p.author.name, p.html])).toEqual([
      ["11", "91", "Cy", "First"],
      ["21", "92", "Di", "Second"],
    ]);
  });
});

describe("the index of a comment file", () => {
  it("finds every post's root, replies listed before their parents included", async () => {
    const index = await indexCommentFile(DISQUS_READER, { path: fixture("disqus-sample.xml"), name: "x" });
    const root = (id: string) => index.ids[index.roots[index.positionOf.get(id)!]!];
    for (const id of ["5002", "5003", "5004", "5005", "5006"]) expect(root(id)).toBe("5001");
    expect(root("5008")).toBe("5007");
    expect(index.parents[index.positionOf.get("5015")!]).toBe(MISSING_PARENT);
    expect(root("5015")).toBe("5015");
    expect(index.ids).toHaveLength(17);
    expect(index.postCount).toBe(18);
    expect(index.threadOf[index.positionOf.get("5016")!]).toBe("1002");
    expect(root("5016")).toBe("5001");
    expect(index.threads.get("1003")!.posts).toBe(0);
    expect(index.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("marks loops of parents", () => {
    const roots = rootsOf(Int32Array.from([NO_PARENT, 2, 1, 2, MISSING_PARENT]));
    expect([...roots]).toEqual([0, IN_LOOP, IN_LOOP, IN_LOOP, 4]);
  });
});

describe("pure rules", () => {
  it("reads export dates", () => {
    expect(parseExportDate("2012-12-12T12:12:12")).toEqual(new Date("2012-12-12T12:12:12Z"));
    expect(parseExportDate("2019-03-04 13:00:00")).toEqual(new Date("2019-03-04T13:00:00Z"));
    expect(parseExportDate("2019-03-04T13:00:00+0200")).toEqual(new Date("2019-03-04T11:00:00Z"));
    expect(parseExportDate("0000-00-00 00:00:00")).toBeNull();
    expect(parseExportDate("yesterday")).toBe("invalid");
  });

  it("normalises e-mails as members keep them, and guest names as comments do", () => {
    expect(normaliseEmail("  Ada@Example.COM ")).toBe("ada@example.com");
    expect(normaliseEmail("not an e-mail")).toBeNull();
    expect(guestNameOf("Anonymous Coward <3")).toBe("Anonymous Coward 3");
    expect(guestNameOf("<<>>")).toBeNull();
  });
});
