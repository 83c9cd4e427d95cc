/**
 * A file that is not what it says is refused whole by `npm run import` (scripts/import/cli.ts),
 * on PGlite and PostgreSQL: exit code 1, one line naming the file and the line (and column where
 * known), and no row written in any table (no run record, page, comment, story or member).
 * Each case reproduces a structure of the peers' public test material (WordPress importer's
 * malformed-simple.xml, invalid-version-tag.xml, missing-version-tag.xml, valid-wxr-1.0/1.1.xml;
 * isso's disqus.xml cut in the middle) or a hostile file (XXE, billion laughs, UTF-16).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { FIXTURES, importAccount, tableCounts } from "@/server/testing/imports";

import { importCommand } from "../../scripts/import/cli";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "broken-files-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
}

async function command(db: Db, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const result = await importCommand(db, argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { ...result, out: out.join("\n"), err: err.join("\n") };
}

/** A WordPress export with one published post and one comment; `version` null: no <wp:wxr_version>. */
function wxr(version: string | null, end = "</channel>\n</rss>\n"): string {
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/${version ?? "1.1"}/">
<channel>
<title>Gazette</title>
<link>https://news.example.com</link>
${version === null ? "" : `<wp:wxr_version>${version}</wp:wxr_version>\n`}<item>
<title>Hello</title>
<link>https://news.example.com/hello/</link>
<dc:creator>ada</dc:creator>
<content:encoded><![CDATA[<p>Hello.</p>]]></content:encoded>
<wp:post_id>7</wp:post_id>
<wp:post_date_gmt>2019-03-04 12:00:00</wp:post_date_gmt>
<wp:post_name>hello</wp:post_name>
<wp:status>publish</wp:status>
<wp:post_type>post</wp:post_type>
<wp:comment><wp:comment_id>1</wp:comment_id><wp:comment_author>Bo</wp:comment_author><wp:comment_date_gmt>2019-03-05 12:00:00</wp:comment_date_gmt><wp:comment_content>Hi</wp:comment_content><wp:comment_approved>1</wp:comment_approved></wp:comment>
</item>
${end}`;
}

const disqus = fs.readFileSync(path.join(FIXTURES, "disqus-sample.xml"), "utf8");
const members = fs.readFileSync(path.join(FIXTURES, "ghost-members.csv"), "utf8").replace(/^\uFEFF/, "");
const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;
const remark42 = fs.readFileSync(path.join(FIXTURES, "remark42-sample.jsonl"), "utf8");
const remark42Lines = remark42.split("\n");

/** The Coral sample copied to a folder of its own, its comments.json with `edit` applied. */
function coral(folder: string, edit: (lines: string[]) => string[]): string {
  const dir = path.join(tmp, folder);
  fs.cpSync(path.join(FIXTURES, "coral-sample"), dir, { recursive: true });
  const comments = path.join(dir, "comments.json");
  fs.writeFileSync(comments, edit(fs.readFileSync(comments, "utf8").split("\n")).join("\n"));
  return dir;
}

type Case = { name: string; from: string; file: () => string; err: RegExp };

const REFUSED: Case[] = [
  {
    name: "a Disqus export cut in the middle",
    from: "disqus",
    file: () => write("cut.xml", disqus.slice(0, disqus.length / 2)),
    err: /^cut\.xml is not well-formed XML: line \d+: the file ends before <\/disqus>, inside the <(post|thread)> of line \d+: it was cut off\./,
  },
  {
    name: "a Disqus export whose DTD declares an external entity (XXE)",
    from: "disqus",
    file: () => path.join(FIXTURES, "disqus-xxe.xml"),
    err: /^disqus-xxe\.xml is not well-formed XML: line 5: its DTD declares entities/,
  },
  {
    name: "billion laughs",
    from: "wxr-comments",
    file: () =>
      write(
        "laughs.xml",
        wxr("1.2").replace(
          "<rss",
          '<!DOCTYPE rss [\n<!ENTITY a "ha">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n<rss',
        ),
      ),
    err: /^laughs\.xml is not well-formed XML: line 6: its DTD declares entities/,
  },
  {
    name: "a WXR of another version",
    from: "wxr",
    file: () => write("wxr-2.0.xml", wxr("2.0")),
    err: /^wxr-2\.0\.xml is not a WordPress export this import reads: line 6: its <wp:wxr_version> is "2\.0" \(versions 1\.0 to 1\.2 are read\)/,
  },
  {
    name: "a WXR whose version is not a number (invalid-version-tag.xml)",
    from: "wxr-comments",
    file: () => write("abc.xml", wxr("abc")),
    err: /^abc\.xml is not a WordPress export this import reads: line 6: its <wp:wxr_version> is "abc"/,
  },
  {
    name: "a WXR without a version (missing-version-tag.xml)",
    from: "wxr",
    file: () => write("none.xml", wxr(null)),
    err: /^none\.xml is not a WordPress export this import reads: line 6: it has no <wp:wxr_version> before its posts/,
  },
  {
    name: "a WXR whose item is never closed (malformed-simple.xml)",
    from: "wxr",
    file: () => write("open-item.xml", wxr("1.2").replace("</item>\n</channel>\n</rss>\n", "")),
    err: /^open-item\.xml is not well-formed XML: line \d+: the file ends before <\/rss>, inside the <item> of line 7: it was cut off/,
  },
  {
    name: "a WXR with a tag closed out of order (malformed.xml)",
    from: "wxr-comments",
    file: () => write("order.xml", wxr("1.2").replace("<title>Hello</title>", "<title>Hello</item></title>")),
    err: /^order\.xml is not well-formed XML: line 8, column 19: unexpected close tag/,
  },
  {
    name: "a members CSV in UTF-16 without a byte-order mark",
    from: "ghost-members",
    file: () => write("utf16.csv", Buffer.from(members, "utf16le")),
    err: /^utf16\.csv: line 1, column 2 holds a NUL character: is it UTF-16 without a byte-order mark\?/,
  },
  {
    name: "a members CSV in Latin-1",
    from: "ghost-members",
    file: () => write("latin1.csv", Buffer.from(members.replace("Bob Builder", "Bob Büilder"), "latin1")),
    err: new RegExp(
      `^latin1\\.csv is not in the encoding it uses \\(utf-8\\): line ${lineOf(members, members.indexOf("Bob Builder"))}, column \\d+ holds bytes that do not decode`,
    ),
  },
  {
    name: "a Remark42 backup with a line that is not JSON",
    from: "remark42",
    file: () =>
      write("remark42-bad.jsonl", remark42Lines.toSpliced(4, 0, '{"id":"x","pid":"" "text":"broken"}').join("\n")),
    err: /^remark42-bad\.jsonl: line 5: it is not JSON \(.*\)\. Nothing of it is imported\.$/,
  },
  {
    name: "a Remark42 backup with a line that is JSON but not an object",
    from: "remark42",
    file: () => write("remark42-list.jsonl", remark42Lines.toSpliced(6, 0, '["a","list"]').join("\n")),
    err: /^remark42-list\.jsonl: line 7: it is a list, not a JSON object\. Nothing of it is imported\.$/,
  },
  {
    name: "a Remark42 backup cut off in its last line",
    from: "remark42",
    file: () => write("remark42-cut.jsonl", remark42.trimEnd().slice(0, -40)),
    err: new RegExp(
      `^remark42-cut\\.jsonl: line ${remark42.trimEnd().split("\n").length}: the file ends inside this line: it was cut off \\(`,
    ),
  },
  {
    name: "a Coral export whose comments.json has a line that is not JSON",
    from: "coral",
    file: () => coral("coral-bad", (lines) => lines.toSpliced(2, 0, '{"id":"c-x" "storyID":"story-1"}')),
    err: /^comments\.json: line 3: it is not JSON \(.*\)\. Nothing of it is imported\.$/,
  },
  {
    name: "a Coral export whose comments.json is cut off",
    from: "coral",
    file: () => coral("coral-cut", (lines) => [...lines.filter((l) => l.trim()), '{"id":"c-cut","storyID":"sto']),
    err: /^comments\.json: line \d+: the file ends inside this line: it was cut off \(/,
  },
  {
    name: "a Ghost export that does not parse",
    from: "ghost",
    file: () => path.join(FIXTURES, "ghost-export-truncated.json"),
    err: /^ghost-export-truncated\.json is not a Ghost export: it is not JSON \(line 63, column 16: /,
  },
];

describe("npm run import refuses a broken or hostile file whole", () => {
  for (const c of REFUSED) {
    it(`${c.name}: exit 1, the line, nothing written (a dry run too)`, async () => {
      const db = await getDb();
      const account = await importAccount(db);
      const file = c.file();
      const before = await tableCounts(db);
      for (const dry of [["--dry-run"], []]) {
        const result = await command(db, ["--from", c.from, file, "--account", account.slug, ...dry]);
        expect(result.code).toBe(1);
        expect(result.out).toBe("");
        expect(result.err).toMatch(c.err);
        expect(result.err).not.toContain(tmp);
      }
      expect(await tableCounts(db)).toEqual(before);
    });
  }

  it("imports WXR 1.0 and 1.1 as 1.2, and a members CSV in UTF-16 with its byte-order mark", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    for (const version of ["1.0", "1.1"]) {
      const text = wxr(version)
        .replace("<wp:post_id>7", `<wp:post_id>7${version[2]}`)
        .replace("<wp:comment_id>1", `<wp:comment_id>1${version[2]}`);
      const file = write(`wxr-${version}.xml`, text);
      const result = await command(db, ["--from", "wxr-comments", file, "--account", account.slug]);
      expect(result.code, result.err).toBe(0);
      expect(result.report!.kinds.comment, result.out).toMatchObject({ create: 1, refuse: 0 });
    }
    const utf16 = write("utf16-bom.csv", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(members, "utf16le")]));
    const result = await command(db, ["--from", "ghost-members", utf16, "--account", account.slug]);
    expect(result.code, result.err).toBe(0);
    expect(result.report!.kinds.member!.create).toBeGreaterThan(3);
    expect(await db.member.findFirst({ where: { accountId: account.id, name: "Bob Builder" } })).not.toBeNull();
  });
});
