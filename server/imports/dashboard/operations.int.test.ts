/**
 * The Import page's procedures (tRPC imports.*) and its job, on PGlite and PostgreSQL: owners
 * only, bad input refused with nothing changed, the import confirmed after its dry run, the
 * refusal of a second import at once, cancelling, and resuming after a cancel and after a kill.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { JOBS } from "@/server/background/job-list";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { claimJobs } from "@/server/jobs/engine";
import {
  FIXTURES,
  importAccount,
  importDirForTests,
  importFixture,
  importSnapshot,
  tableCounts,
  uploadImportFile,
} from "@/server/testing/imports";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createAnonymousCaller, createTestStaff, type TestStaff } from "@/server/testing/staff";

import { ImportAborted } from "../types";

const SAMPLE = path.join(FIXTURES, "disqus-sample.xml");
const importDir = importDirForTests("masthead-import-ops-");

/** An account on the fixtures' host with an owner and an editor. */
async function team() {
  const db = await getDb();
  const account = await importAccount(db);
  const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id, name: "Olive Owner" });
  const editor = await createTestStaff(db, { roles: ["EDITOR", "MODERATOR", "REVENUE"], account: account.id });
  return { db, account, owner, editor };
}

/** Upload a file as the owner (what POST /api/admin/imports does), its dry run queued. */
function uploadFile(db: Db, owner: TestStaff, file = SAMPLE, source = "disqus") {
  return uploadImportFile(db, owner, { file, source, dir: importDir() });
}

/** A Disqus export of one thread and `n` comments (many batches of the runner's 100). */
async function largeExport(n: number): Promise<string> {
  const posts = Array.from(
    { length: n },
    (_, i) => `  <post dsq:id="${9000 + i}"><id /><message><![CDATA[<p>Comment ${i}</p>]]></message>
    <createdAt>2020-01-01T00:00:00Z</createdAt><isDeleted>false</isDeleted><isSpam>false</isSpam>
    <author><email>r${i % 50}@example.com</email><name>Reader ${i % 50}</name><isAnonymous>false</isAnonymous></author>
    <thread dsq:id="7001" /></post>`,
  );
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<disqus xmlns="http://disqus.com" xmlns:dsq="http://disqus.com/disqus-internals">
  <thread dsq:id="7001"><id /><forum>f</forum><link>https://news.example.com/2020/01/big</link><title>Big</title>
    <createdAt>2020-01-01T00:00:00Z</createdAt><isClosed>false</isClosed><isDeleted>false</isDeleted></thread>
${posts.join("\n")}
</disqus>
`;
  const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "masthead-big-")), "big.xml");
  await fs.writeFile(file, xml);
  return file;
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("imports router", () => {
  it("lists the registry's sources with their descriptions", async () => {
    const { owner } = await team();
    const sources = await owner.caller.imports.sources();
    const { IMPORT_SOURCES } = await import("../sources");
    expect(sources.map((s) => s.name)).toEqual(Object.keys(IMPORT_SOURCES));
    expect(sources.find((s) => s.name === "disqus")).toMatchObject({
      description: IMPORT_SOURCES.disqus!.description,
      kinds: [...IMPORT_SOURCES.disqus!.kinds],
      commandLineOnly: null,
    });
    expect(sources.filter((s) => s.commandLineOnly).map((s) => s.name)).toEqual(["coral", "content-api"]);
    // The options each takes (the command line's flags for it).
    const takes = new Map(sources.map((s) => [s.name, s.options]));
    expect(takes.get("disqus")).toEqual(["site", "announce"]);
    expect(takes.get("ghost")).toEqual(["site", "announce", "ghost-url"]);
    expect(takes.get("subscriptions")).toEqual(["site", "announce", "as-of", "plans"]);
    expect(takes.get("ghost-members")).toEqual(["site", "announce", "as-of", "plans"]);
    expect(takes.get("newsletter-csv")).toEqual(["site", "announce", "as-of", "newsletter"]);
    // Owners read these on the Import page: no commands or flags (docs/migration.md has those).
    for (const s of sources) {
      expect(`${s.description} ${s.commandLineOnly ?? ""}`).not.toMatch(/npm |npx |--[a-z]|MAPPING|FOLDER/);
    }
  });

  it("shows the dry run, then imports on confirm as the owner, with progress, report, run and audit", async () => {
    const { db, account, owner } = await team();
    const { id } = await uploadFile(db, owner);
    expect(await owner.caller.imports.latest()).toMatchObject({ id, state: "queued", operation: "dry-run" });
    await runJobsNow(db);
    const checked = await owner.caller.imports.upload({ uploadId: id });
    expect(checked).toMatchObject({ state: "completed", operation: "dry-run", uploadedBy: "Olive Owner", run: null });
    expect(checked.progress.done).toBe(checked.progress.total);
    const dry = checked.dryReport!;
    expect(dry.dryRun).toBe(true);
    expect(dry.digest).toBe(checked.fileDigest);
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(0);

    const queued = await owner.caller.imports.start({ uploadId: id, digest: dry.digest });
    expect(queued).toMatchObject({ state: "queued", operation: "import" });
    await runJobsNow(db);
    const imported = await owner.caller.imports.upload({ uploadId: id });
    expect(imported).toMatchObject({ state: "completed", operation: "import", error: null });
    const run = imported.run!;
    expect(run).toMatchObject({
      status: "completed",
      actor: "Olive Owner",
      uploadId: id,
      fileName: "disqus-sample.xml",
    });
    expect(run.progress.done).toBe(run.progress.total);
    expect(imported.progress).toEqual(run.progress);
    // The real run does what its dry run said.
    expect(run.report!.kinds).toEqual(dry.kinds);
    expect(run.counts).toEqual(dry.kinds);
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(dry.kinds.comment!.create);
    const audit = await db.auditLog.findMany({ where: { targetId: run.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.actorId])).toEqual([
      ["import.started", owner.user.id],
      ["import.finished", owner.user.id],
    ]);
    expect((await owner.caller.imports.runs({})).map((r) => r.id)).toEqual([run.id]);

    // The same file again: its dry run would create nothing.
    const again = await uploadFile(db, owner);
    await runJobsNow(db);
    const second = (await owner.caller.imports.upload({ uploadId: again.id })).dryReport!;
    for (const counts of Object.values(second.kinds)) expect(counts.create).toBe(0);
    expect(second.kinds.comment!.skip).toBe(dry.kinds.comment!.create + dry.kinds.comment!.skip);
  });

  it("is for owners only, scoped to the account, and refuses bad input changing nothing", async () => {
    const { db, owner, editor } = await team();
    const { id } = await uploadFile(db, owner);
    const other = await createTestStaff(db, { roles: ["OWNER"] });
    const forbidden = [
      editor.caller.imports.sources(),
      editor.caller.imports.latest(),
      editor.caller.imports.upload({ uploadId: id }),
      editor.caller.imports.start({ uploadId: id, digest: "0".repeat(64) }),
      editor.caller.imports.cancel({ uploadId: id }),
      editor.caller.imports.runs({}),
    ];
    for (const call of forbidden) await expect(call).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createAnonymousCaller(db).imports.runs({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(other.caller.imports.upload({ uploadId: id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.caller.imports.cancel({ uploadId: id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await other.caller.imports.latest()).toBeNull();

    const before = await tableCounts(db);
    const caller = owner.caller.imports;
    await expect(caller.upload({ uploadId: "nope" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.start({ uploadId: id, digest: "xyz" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.runs({ limit: 1000 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // Before its dry run has completed, and with another digest than the dry run's.
    const digest = (await caller.upload({ uploadId: id })).fileDigest;
    await expect(caller.start({ uploadId: id, digest })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/dry run has not completed/) as string,
    });
    expect(await tableCounts(db)).toEqual(before);
    await runJobsNow(db);
    const after = await tableCounts(db);
    await expect(caller.start({ uploadId: id, digest: "a".repeat(64) })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/SHA-256 differs/) as string,
    });
    await expect(
      caller.start({ uploadId: "00000000-0000-4000-8000-000000000000", digest: "a".repeat(64) }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.cancel({ uploadId: id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await tableCounts(db)).toEqual(after);
  });

  it("refuses a file changed on disk since its dry run, importing nothing", async () => {
    const { db, account, owner } = await team();
    const { id, digest } = await uploadFile(db, owner);
    await runJobsNow(db);
    await fs.appendFile(path.join(importDir(), String(account.id), id), "<!-- changed -->\n");
    await owner.caller.imports.start({ uploadId: id, digest });
    await runJobsNow(db);
    const view = await owner.caller.imports.upload({ uploadId: id });
    expect(view).toMatchObject({ state: "failed", run: null });
    expect(view.error).toMatch(/changed since its dry run/);
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("fails the dry run of a broken or hostile file with its line, writing nothing", async () => {
    const { db, account, owner } = await team();
    const text = await fs.readFile(SAMPLE, "utf8");
    const cut = path.join(importDir(), "cut-export.xml");
    await fs.writeFile(cut, text.slice(0, text.length / 2));
    for (const [file, error] of [
      [cut, /^cut-export\.xml is not well-formed XML: line \d+: the file ends before <\/disqus>/],
      [
        path.join(FIXTURES, "disqus-xxe.xml"),
        /^disqus-xxe\.xml is not well-formed XML: line 5: its DTD declares entities/,
      ],
    ] as const) {
      const { id } = await uploadFile(db, owner, file);
      const before = await tableCounts(db);
      await runJobsNow(db);
      const view = await owner.caller.imports.upload({ uploadId: id });
      expect(view).toMatchObject({ state: "failed", run: null });
      expect(view.error).toMatch(error);
      expect(await tableCounts(db)).toMatchObject({
        comments: before.comments,
        pages: before.pages,
        import_runs: before.import_runs,
      });
    }
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("refuses two imports of one account at once (409), whichever asks first", async () => {
    const { db, owner } = await team();
    const a = await uploadFile(db, owner);
    await runJobsNow(db);
    const b = await uploadFile(db, owner);
    await runJobsNow(db);
    const results = await Promise.allSettled([
      owner.caller.imports.start({ uploadId: a.id, digest: a.digest }),
      owner.caller.imports.start({ uploadId: b.id, digest: b.digest }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected")!;
    expect(refused.reason).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/An import of disqus-sample\.xml \(disqus\) is already under way/) as string,
    });
    expect(await db.job.count({ where: { name: "import.operation", status: "PENDING" } })).toBe(1);
  });

  it("cancels a queued import, and Resume imports it after", async () => {
    const { db, account, owner } = await team();
    const { id, digest } = await uploadFile(db, owner);
    await runJobsNow(db);
    await owner.caller.imports.start({ uploadId: id, digest });
    const cancelled = await owner.caller.imports.cancel({ uploadId: id });
    expect(cancelled).toMatchObject({ state: "interrupted", operation: "import" });
    expect(await db.job.count({ where: { name: "import.operation", status: "CANCELLED" } })).toBe(1);
    await runJobsNow(db);
    expect(await db.importRun.count({ where: { accountId: account.id } })).toBe(0);

    await owner.caller.imports.start({ uploadId: id, digest });
    await runJobsNow(db);
    expect((await owner.caller.imports.upload({ uploadId: id })).run!.status).toBe("completed");
  });

  // 600 comments imported twice over, batch by batch: more than the default 30 s on a busy machine.
  it("stops a running import after the batch in flight, and Resume does the rest", { timeout: 120_000 }, async () => {
    const { db, account, owner } = await team();
    const comments = 600;
    const file = await largeExport(comments);
    const { id, digest } = await uploadFile(db, owner, file);
    await runJobsNow(db);
    await owner.caller.imports.start({ uploadId: id, digest });
    const running = runJobsNow(db);
    // Cancel once the run has done a batch.
    for (;;) {
      const run = await db.importRun.findFirst({ where: { uploadId: id } });
      if (run && run.progressDone > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await owner.caller.imports.cancel({ uploadId: id })).cancelRequested).toBe(true);
    await running;
    const stopped = await owner.caller.imports.upload({ uploadId: id });
    expect(stopped).toMatchObject({ state: "interrupted" });
    expect(stopped.run).toMatchObject({ status: "interrupted" });
    const done = stopped.run!.progress.done;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(stopped.run!.progress.total);
    // Items are the thread (its page) first, then its comments: all of each batch done, none of the next.
    const landed = done - 1;
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(landed);

    await owner.caller.imports.start({ uploadId: id, digest });
    await runJobsNow(db);
    const resumed = await owner.caller.imports.upload({ uploadId: id });
    expect(resumed.run).toMatchObject({ status: "completed" });
    expect(resumed.run!.counts.comment).toMatchObject({ create: comments - landed, skip: landed });
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(comments);
    expect((await owner.caller.imports.runs({})).map((r) => r.status)).toEqual(["completed", "interrupted"]);
  });

  it("does not resume a killed import the owner cancelled meanwhile", async () => {
    const { db, account, owner } = await team();
    const { id, digest } = await uploadFile(db, owner);
    await runJobsNow(db);
    await owner.caller.imports.start({ uploadId: id, digest });
    const now = new Date();
    await claimJobs(db, { jobs: JOBS, workerId: "dead", now, limit: 1 });
    // The dead worker still holds the job: it cannot be withdrawn, only asked to stop.
    expect((await owner.caller.imports.cancel({ uploadId: id })).cancelRequested).toBe(true);
    await runJobsNow(db, testJobDeps({ clock: () => new Date(now.getTime() + 61_000) }));
    expect(await owner.caller.imports.upload({ uploadId: id })).toMatchObject({ state: "interrupted", run: null });
    expect(await db.comment.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("resumes a run whose process was killed: the job is taken up again and ends as an uninterrupted run would", async () => {
    const { db, account, owner } = await team();
    const { id, digest } = await uploadFile(db, owner);
    await runJobsNow(db);
    await owner.caller.imports.start({ uploadId: id, digest });
    // A worker takes the job and dies half-way through the file: its run stays "running".
    const now = new Date();
    const [claimed] = await claimJobs(db, { jobs: JOBS, workerId: "dead", now, limit: 1 });
    expect(claimed?.name).toBe("import.operation");
    await expect(
      importFixture(db, account.id, "disqus", SAMPLE, {
        actor: staffActor(owner.user),
        batchSize: 1,
        afterItem: (n) => {
          if (n === 5) throw new ImportAborted();
        },
      }),
    ).rejects.toBeInstanceOf(ImportAborted);
    await db.importRun.updateMany({ where: { accountId: account.id }, data: { uploadId: id } });
    await db.importUpload.update({ where: { id }, data: { state: "running" } });

    // Its lease runs out; the next pass takes the job up and resumes.
    const later = new Date(now.getTime() + 61_000);
    await runJobsNow(db, testJobDeps({ clock: () => later }));
    const view = await owner.caller.imports.upload({ uploadId: id });
    expect(view).toMatchObject({ state: "completed" });
    const runs = await owner.caller.imports.runs({});
    expect(runs.map((r) => r.status)).toEqual(["completed", "interrupted"]);

    // The same as an uninterrupted import of the file into a fresh account.
    const fresh = await importAccount(db);
    await importFixture(db, fresh.id, "disqus", SAMPLE);
    expect(await importSnapshot(db, account.id)).toEqual(await importSnapshot(db, fresh.id));
  });
});
