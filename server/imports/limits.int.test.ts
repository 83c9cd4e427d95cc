/**
 * Hostile import files, on PGlite and PostgreSQL: a JSON export or a Lexical body nested 100,000
 * levels deep, an XML export as deep, a gzip file expanding to hundreds of MB. The CLI exits
 * non-zero with a message naming the limit, the dashboard's dry run fails with it, nothing is
 * written, and no answer holds a path of the server.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { resetEnvCache } from "@/env.js";
import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { importAccount } from "@/server/testing/imports";
import { runJobsNow } from "@/server/testing/jobs";
import { createTestStaff } from "@/server/testing/staff";

import { importCommand } from "../../scripts/import/cli";
import { storeImportUpload } from "./dashboard/uploads";
import { MAX_DEPTH, MAX_EXPANDED_BYTES } from "./limits";

const LEVELS = 100_000;
let dir = "";
let uploads = "";

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-limits-"));
  uploads = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-limits-up-"));
  process.env.IMPORT_DIR = uploads;
  resetEnvCache();
});
afterAll(async () => {
  delete process.env.IMPORT_DIR;
  resetEnvCache();
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(uploads, { recursive: true, force: true });
});

/** No server path in `text`: not the temporary folder, not the working directory. */
function expectNoServerPath(text: string) {
  expect(text).not.toContain("/tmp");
  expect(text).not.toContain(os.tmpdir());
  expect(text).not.toContain(process.cwd());
  expect(text).not.toContain(dir);
  expect(text).not.toContain(uploads);
}

const deepJson = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

/** The hostile files, written into `dir`. */
async function hostile() {
  const ghost = path.join(dir, "ghost-deep.json");
  await fs.writeFile(ghost, `{"db":[{"meta":{},"data":{"posts":[${deepJson(LEVELS)}]}}]}`);
  const lexical = path.join(dir, "ghost-lexical.json");
  const post = { id: "p1", title: "Deep", slug: "deep", status: "published", lexical: deepJson(LEVELS) };
  await fs.writeFile(lexical, JSON.stringify({ db: [{ meta: {}, data: { posts: [post] } }] }));
  const xml = path.join(dir, "disqus-deep.xml");
  await fs.writeFile(
    xml,
    `<?xml version="1.0" encoding="utf-8"?><disqus xmlns="http://disqus.com">${"<a>".repeat(LEVELS)}${"</a>".repeat(LEVELS)}</disqus>`,
  );
  // Gzip members of 16 MB of zeros, concatenated: ~300 MB once unpacked, a few hundred KB stored.
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024));
  const parts = Math.ceil(MAX_EXPANDED_BYTES / (16 * 1024 * 1024)) + 2;
  const bomb = path.join(dir, "remark42-bomb.gz");
  await fs.writeFile(bomb, Buffer.concat(Array.from({ length: parts }, () => member)));
  const remarkDeep = path.join(dir, "remark42-deep.jsonl");
  await fs.writeFile(remarkDeep, `{"version":1}\n${deepJson(LEVELS)}\n`);
  return [
    { file: ghost, source: "ghost", says: `deeper than ${MAX_DEPTH} levels` },
    { file: lexical, source: "ghost", says: `post p1, its lexical` },
    { file: xml, source: "disqus", says: `deeper than ${MAX_DEPTH} levels (at line 1, <a>)` },
    { file: bomb, source: "remark42", says: `expands to more than ${MAX_EXPANDED_BYTES / 1048576} MB` },
    { file: remarkDeep, source: "remark42", says: `deeper than ${MAX_DEPTH} levels (at line 2` },
  ];
}

async function counts(db: Db, accountId: number) {
  return [
    await db.comment.count({ where: { accountId } }),
    await db.story.count({ where: { accountId } }),
    await db.importRun.count({ where: { accountId } }),
    await db.importRecord.count({ where: { accountId } }),
  ];
}

describe("hostile import files", () => {
  it("the CLI refuses each whole, exiting 1 with the limit and the file's own name", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    for (const { file, source, says } of await hostile()) {
      for (const dry of [true, false]) {
        const out: string[] = [];
        const err: string[] = [];
        const argv = ["--from", source, file, "--account", account.slug, ...(dry ? ["--dry-run"] : [])];
        const result = await importCommand(db, argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
        const said = [...out, ...err].join("\n");
        expect(result.code, `${source} ${path.basename(file)}: ${said}`).toBe(1);
        expect(said).toContain(says);
        expect(said).toContain(path.basename(file));
        expectNoServerPath(said);
      }
    }
    expect(await counts(db, account.id)).toEqual([0, 0, 0, 0]);
  }, 120_000);

  it("the dashboard's dry run fails with the message, naming the upload, never the server's path", async () => {
    const db = await getDb();
    const account = await importAccount(db);
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
    for (const { file, source, says } of await hostile()) {
      const stat = await fs.stat(file);
      const { id } = await storeImportUpload(db, {
        actor: staffActor(owner.user),
        source,
        fileName: path.basename(file),
        body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
        contentLength: stat.size,
        maxBytes: 10 * 1024 * 1024,
        dir: uploads,
        now: new Date(),
      });
      await runJobsNow(db);
      const view = await owner.caller.imports.upload({ uploadId: id });
      expect(view.state, JSON.stringify(view)).toBe("failed");
      expect(view.error).toContain(says);
      expect(view.error).toContain(path.basename(file));
      expectNoServerPath(JSON.stringify(view));
      expectNoServerPath(JSON.stringify(await owner.caller.imports.latest()));
    }
    expect(await counts(db, account.id)).toEqual([0, 0, 0, 0]);
  }, 120_000);
});
