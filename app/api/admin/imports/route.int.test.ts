// POST /api/admin/imports: real streamed uploads of real exports, the dry run they queue, both databases.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { resetEnvCache } from "@/env.js";
import type { AdminSession } from "@/server/auth/admin-session";
import type { AdminRole } from "@/server/auth/roles";
import { getDb } from "@/server/db";
import { FIXTURES, importAccount, tableCounts } from "@/server/testing/imports";
import { runJobsNow } from "@/server/testing/jobs";
import { createTestStaff } from "@/server/testing/staff";

// The dashboard session comes from the next-auth cookie in the app; here the test says who is signed in.
const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST } = await import("./route");

const MAX = 64 * 1024;
const none = { params: Promise.resolve({}) };
const SAMPLE = path.join(FIXTURES, "disqus-sample.xml");
let dir = "";

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-imports-"));
  Object.assign(process.env, { IMPORT_DIR: dir, IMPORT_UPLOAD_MAX_BYTES: String(MAX) });
  resetEnvCache();
});
afterAll(async () => {
  delete process.env.IMPORT_DIR;
  delete process.env.IMPORT_UPLOAD_MAX_BYTES;
  resetEnvCache();
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  for (const entry of await fs.readdir(dir)) await fs.rm(path.join(dir, entry), { recursive: true, force: true });
});

type Created = { id: string; source: string; "file-name": string; digest: string; bytes: number; state: string };
type ErrorBody = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

/** The body as a stream, as a browser's fetch(…, { body: file }) sends it (no Content-Length unless given). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.subarray(i, i + 1000));
      controller.close();
    },
  });
}

function upload(bytes: Uint8Array | null, query: string, headers: Record<string, string> = {}) {
  return POST(
    new Request(`http://localhost/api/admin/imports?${query}`, {
      method: "POST",
      body: bytes ? streamOf(bytes) : null,
      headers: { "Content-Type": "application/xml", ...headers },
      ...(bytes ? { duplex: "half" } : {}),
    }),
    none,
  );
}

async function signIn(roles: AdminRole[]) {
  const db = await getDb();
  const account = await importAccount(db);
  const staff = await createTestStaff(db, { roles, account: account.id });
  session.current = staff.session;
  return { db, account, user: staff.user };
}

async function filesIn(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

describe("POST /api/admin/imports", () => {
  it("streams an owner's export to disk with its digest and queues a dry run that changes nothing but the upload", async () => {
    const { db, account, user } = await signIn(["OWNER"]);
    const bytes = await fs.readFile(SAMPLE);
    const before = await tableCounts(db);

    const res = await upload(bytes, "source=disqus&name=disqus-sample.xml");
    expect(res.status).toBe(201);
    const body = (await res.json()) as Created;
    const digest = createHash("sha256").update(bytes).digest("hex");
    expect(body).toMatchObject({ source: "disqus", "file-name": "disqus-sample.xml", digest, bytes: bytes.length });
    expect(await fs.readFile(path.join(dir, String(account.id), body.id))).toEqual(bytes);
    const row = await db.importUpload.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ accountId: account.id, uploadedById: user.id, operation: "dry-run", state: "queued" });
    expect(await db.job.count({ where: { key: `import:${account.id}`, status: "PENDING" } })).toBe(1);

    await runJobsNow(db);
    const done = await db.importUpload.findUniqueOrThrow({ where: { id: body.id } });
    expect(done.state).toBe("completed");
    expect(done.progressDone).toBe(done.progressTotal);
    expect(done.progressTotal).toBeGreaterThan(0);
    const report = done.dryReport as { dryRun: boolean; digest: string; kinds: Record<string, { create: number }> };
    expect(report.dryRun).toBe(true);
    expect(report.digest).toBe(digest);
    expect(report.kinds.comment!.create).toBeGreaterThan(0);
    // Nothing imported: only the upload (and its finished job) are new.
    const after = await tableCounts(db);
    expect({ ...after, import_uploads: 0, jobs: 0 }).toEqual({ ...before, import_uploads: 0, jobs: 0 });
    expect(after.import_uploads).toBe(before.import_uploads! + 1);
  });

  it("is for owners only: others get 403, the signed-out 401, and nothing is stored", async () => {
    const { db } = await signIn(["EDITOR", "MODERATOR", "REVENUE"]);
    const bytes = await fs.readFile(SAMPLE);
    expect((await upload(bytes, "source=disqus&name=a.xml")).status).toBe(403);
    session.current = null;
    expect((await upload(bytes, "source=disqus&name=a.xml")).status).toBe(401);
    expect(await db.importUpload.count()).toBe(0);
    expect(await filesIn(dir)).toEqual([]);
  });

  it("refuses bad input with a clear error, storing nothing", async () => {
    const { db } = await signIn(["OWNER"]);
    const sample = await fs.readFile(SAMPLE);
    const expectError = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status);
      const { error } = (await res.json()) as ErrorBody;
      expect(error.message).toMatch(message);
      return error;
    };

    const unknown = await expectError(await upload(sample, "source=nope&name=a.xml"), 400, /Unknown source "nope"/);
    // A source the dashboard cannot run (a folder) is refused, saying what to do in an owner's
    // words (the commands are in docs/migration.md, for whoever runs the server).
    await expectError(
      await upload(sample, "source=coral&name=a.json"),
      400,
      /command line only: .*whoever runs your Masthead server/,
    );
    // Options: each for the sources its flag is for, in its shape, the export's instant not ahead.
    const misplaced = await expectError(
      await upload(
        sample,
        "source=disqus&name=a.xml&ghost-url=https%3A%2F%2Fold.example&as-of=2026-01-01T00%3A00%3A00Z",
      ),
      400,
      /do not go with a disqus file: ghost-url is for Ghost exports only.*as-of is for the readers' files only/,
    );
    expect(misplaced.details?.map((d) => d.field)).toEqual(["ghost-url", "as-of"]);
    await expectError(
      await upload(sample, "source=subscriptions&name=a.csv&as-of=2999-01-01T00%3A00%3A00Z"),
      400,
      /as-of is in the future/,
    );
    for (const bad of [
      "source=ghost&name=a.json&ghost-url=ftp%3A%2F%2Fold.example",
      "source=subscriptions&name=a.csv&as-of=2026-09-25",
      "source=disqus&name=a.xml&announce=maybe",
      "source=disqus&name=a.xml&site=a%20b",
      "source=newsletter-csv&name=a.csv&newsletter=%3Cb%3E",
    ])
      await expectError(await upload(sample, bad), 400, /./);
    expect(unknown.details).toEqual([{ field: "source", issue: expect.stringContaining("disqus") as string }]);
    await expectError(await upload(sample, "name=a.xml"), 400, /./);
    await expectError(await upload(sample, "source=disqus"), 400, /./);
    await expectError(await upload(sample, "source=disqus&name=..%2Fetc%2Fpasswd"), 400, /./);
    await expectError(await upload(null, "source=disqus&name=a.xml"), 400, /empty/);
    await expectError(await upload(new Uint8Array(), "source=disqus&name=a.xml"), 400, /empty/);
    // Too large: by its Content-Length at once, and while it streams without one.
    const big = new Uint8Array(MAX + 1).fill(0x41);
    await expectError(
      await upload(big, "source=disqus&name=big.xml", { "Content-Length": String(big.length) }),
      413,
      /at most 65536 bytes/,
    );
    await expectError(await upload(big, "source=disqus&name=big.xml"), 413, /at most 65536 bytes/);
    // Not a text export.
    const zip = new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 0, 0, 8, 0]);
    await expectError(await upload(zip, "source=disqus&name=export.zip"), 415, /ZIP archive/);
    const binary = new Uint8Array([0x3c, 0x3f, 0x78, 0x00, 0x01, 0x02]);
    await expectError(await upload(binary, "source=disqus&name=x.xml"), 415, /binary/);

    expect(await db.importUpload.count()).toBe(0);
    expect(await db.job.count({ where: { name: "import.operation" } })).toBe(0);
    expect(await filesIn(dir)).toEqual([]);
  });

  it("takes a file of another format, or gzipped for a source that reads no gzip, and its dry run fails saying why, changing nothing", async () => {
    const { db } = await signIn(["OWNER"]);
    const csv = new TextEncoder().encode("email,name\nada@example.com,Ada\n");
    const before = await tableCounts(db);
    const res = await upload(csv, "source=disqus&name=members.csv", { "Content-Type": "text/csv" });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as Created;
    await runJobsNow(db);
    const row = await db.importUpload.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ state: "failed", dryReport: null });
    expect(row.error).toMatch(
      /^members\.csv is not XML: it holds no XML element \(line 3, column \d+: [^)]+\)\. Nothing of it is imported\.$/,
    );
    // A gzipped file is taken (Remark42's backups are): Disqus's reader says it is not its own.
    const gz = gzipSync(await fs.readFile(SAMPLE));
    const zipped = await upload(gz, "source=disqus&name=export.xml.gz", { "Content-Type": "application/gzip" });
    expect(zipped.status).toBe(201);
    await runJobsNow(db);
    const refused = await db.importUpload.findUniqueOrThrow({ where: { id: ((await zipped.json()) as Created).id } });
    expect(refused).toMatchObject({
      state: "failed",
      dryReport: null,
      error:
        "export.xml.gz is gzip-compressed and the disqus source cannot read it so: unpack it (gunzip) and upload the file inside.",
    });
    const after = await tableCounts(db);
    expect({ ...after, import_uploads: 0, jobs: 0 }).toEqual({ ...before, import_uploads: 0, jobs: 0 });
  });

  it("refuses a second upload of the account while the first one's dry run is under way (409), under concurrency", async () => {
    const { db, account } = await signIn(["OWNER"]);
    const bytes = await fs.readFile(SAMPLE);
    const responses = await Promise.all([
      upload(bytes, "source=disqus&name=one.xml"),
      upload(bytes, "source=disqus&name=two.xml"),
      upload(bytes, "source=wxr-comments&name=three.xml"),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    // Whichever upload came first is the one the others are told about.
    const taken = (await responses.find((r) => r.status === 201)!.json()) as Created;
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(((await refused.json()) as ErrorBody).error.message).toContain(
        `A dry run of ${taken["file-name"]} (${taken.source}) is already under way for this account`,
      );
    }
    expect(await db.importUpload.count({ where: { accountId: account.id } })).toBe(1);
    expect(await db.job.count({ where: { name: "import.operation" } })).toBe(1);
    expect(await filesIn(dir)).toHaveLength(1);

    // Once it has run, the next upload is taken.
    await runJobsNow(db);
    expect((await upload(bytes, "source=disqus&name=four.xml")).status).toBe(201);
  });
});
