/**
 * What the import tests share: an account to import into, running a fixture, the table counts a
 * dry run must leave alone, and a snapshot of what an import made, by the source's ids (so two
 * runs can be compared whatever ids the database handed out). Test support: imported by tests only.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";

import { afterAll, beforeAll, beforeEach, expect } from "vitest";

import { resetEnvCache } from "../../env.js";
import { staffActor, systemActor } from "../auth/actor";
import type { Db } from "../db/client";
import type { TImportOptions } from "../imports/dashboard/dashboard.schema";
import { storeImportUpload } from "../imports/dashboard/uploads";
import { runImport, type RunImportArgs } from "../imports/runner";
import { IMPORT_SOURCES } from "../imports/sources";
import { ImportAborted } from "../imports/types";
import { forgetPublisherCache } from "../publishing/publisher";
import { createTestPublisher } from "./publishing-factories";
import type { TestStaff } from "./staff";

export const FIXTURES = path.join(import.meta.dirname, "..", "imports", "fixtures");

/** An account whose site is https://news.example.com (the fixtures' host). */
export async function importAccount(db: Db, slug?: string) {
  return createTestPublisher(db, { siteUrl: "https://news.example.com", ...(slug ? { slug } : {}) });
}

/**
 * An account for content imports: its site https://news.example.com, and `imageHosts` (the old
 * site's, its CDN's) among its external image hosts, read afresh (the publisher cache forgotten).
 */
export async function contentImportAccount(db: Db, imageHosts: string[] = ["news.example.com"]) {
  forgetPublisherCache();
  const account = await importAccount(db);
  await db.publisherConfig.update({
    where: { accountId: account.id },
    data: { settings: { "external-image-hosts": imageHosts } },
  });
  return account;
}

/**
 * An account for comment imports, as the comment sources' tests begin: Ada signed up with her
 * e-mail (ada@example.com) before the import; with `known`, a reader the old system's identity
 * already names (Dave); with `page`, that page with a comment of Ada's own (never touched by an
 * import); with `webhook`, an endpoint taking comment.created (which an import must not call).
 */
export async function commentImportAccount(
  db: Db,
  options: {
    known?: { email: string; provider: string; externalId: string };
    page?: string;
    webhook?: boolean;
  } = {},
) {
  const account = await importAccount(db);
  const ada = await db.member.create({
    data: { accountId: account.id, name: "Ada (signed up)", email: "ada@example.com", passwordHash: "-" },
  });
  let dave = null;
  if (options.known) {
    const { email, provider, externalId } = options.known;
    dave = await db.member.create({ data: { accountId: account.id, name: "Dave", email, passwordHash: "-" } });
    await db.memberIdentity.create({ data: { accountId: account.id, memberId: dave.id, provider, externalId } });
  }
  let page = null;
  let own = null;
  if (options.page) {
    page = await db.page.create({ data: { accountId: account.id, url: options.page } });
    own = await db.comment.create({
      data: {
        accountId: account.id,
        pageId: page.id,
        authorId: ada.id,
        body: { ops: [{ insert: "Already here.\n" }] },
        bodyDigest: "own",
        createdAt: new Date("2026-01-01T00:00:00Z"),
      },
    });
  }
  if (options.webhook) {
    await db.webhookEndpoint.create({
      data: { accountId: account.id, kind: "ENGAGEMENT", url: "https://hooks.example/x", events: ["comment.created"] },
    });
  }
  return { db, account, ada, dave, page, own };
}

/** Import a fixture (or any file) as the system. */
export function importFixture(
  db: Db,
  accountId: number,
  source: keyof typeof IMPORT_SOURCES,
  file: string,
  over: Partial<RunImportArgs> = {},
) {
  const full = path.isAbsolute(file) ? file : path.join(FIXTURES, file);
  return runImport(db, {
    source: IMPORT_SOURCES[source]!,
    file: { path: full, name: path.basename(full) },
    accountId,
    actor: systemActor(accountId, "import"),
    dryRun: false,
    ...over,
  });
}

/** Rows of every table (a dry run and a second run must leave every count as it was). */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations' ORDER BY 1",
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows) {
    const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${name}"`);
    counts[name] = Number(row!.n);
  }
  return counts;
}

/** What an import made in an account, keyed by the source's ids. */
export async function importSnapshot(db: Db, accountId: number) {
  const records = await db.importRecord.findMany({
    where: { accountId },
    orderBy: [{ kind: "asc" }, { sourceId: "asc" }],
  });
  const sourceOf = new Map(records.filter((r) => r.kind === "comment").map((r) => [Number(r.targetId), r.sourceId]));
  const comments = await db.comment.findMany({
    where: { accountId, id: { in: [...sourceOf.keys()] } },
    include: { page: { select: { url: true, headline: true } }, author: { include: { identities: true } } },
  });
  return {
    records: records.map((r) => ({
      kind: r.kind,
      sourceId: r.sourceId,
      created: r.created,
      sourceParentId: r.sourceParentId,
    })),
    comments: comments
      .map((c) => ({
        sourceId: sourceOf.get(c.id),
        parent: c.parentCommentId === null ? null : (sourceOf.get(c.parentCommentId) ?? "existing"),
        page: c.page,
        author: {
          email: c.author.email.endsWith(".invalid") ? "(placeholder)" : c.author.email,
          name: c.author.name,
          identities: c.author.identities.map((i) => `${i.provider}:${i.externalId}`).sort(),
        },
        body: c.body,
        guest: c.guest,
        guestName: c.guestName,
        isPublished: c.isPublished,
        isSpam: c.isSpam,
        moderationState: c.moderationState,
        createdAt: c.createdAt.toISOString(),
        deletedAt: c.deletedAt?.toISOString() ?? null,
        decidedAt: c.decidedAt?.toISOString() ?? null,
      }))
      .sort((a, b) => (a.sourceId! < b.sourceId! ? -1 : 1)),
  };
}

/**
 * The resume rule, for any source: `file` imported whole into `whole`, and into `killed` stopped
 * (as a kill would) once `stopAt` items were applied, for each `stopAts`, then run again to the
 * end: something but not everything was left by the kills, the last run completes, and
 * `snapshot` reads the two accounts alike. Returns the last run's report.
 */
export async function expectResumedLikeWhole(
  db: Db,
  args: {
    source: keyof typeof IMPORT_SOURCES;
    file: string;
    whole: { id: number };
    killed: { id: number };
    stopAts: number[];
    over?: Partial<RunImportArgs>;
    snapshot?: (db: Db, accountId: number) => Promise<unknown>;
  },
) {
  const { source, file, whole, killed, over = {}, snapshot = importSnapshot } = args;
  await importFixture(db, whole.id, source, file, over);
  for (const stopAt of args.stopAts) {
    await expect(
      importFixture(db, killed.id, source, file, {
        ...over,
        afterItem: (applied) => {
          if (applied === stopAt) throw new ImportAborted("killed");
        },
      }),
    ).rejects.toThrow(ImportAborted);
  }
  const left = await db.importRecord.count({ where: { accountId: killed.id } });
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThan(await db.importRecord.count({ where: { accountId: whole.id } }));
  const resumed = await importFixture(db, killed.id, source, file, over);
  expect(resumed.status).toBe("completed");
  expect(await snapshot(db, killed.id)).toEqual(await snapshot(db, whole.id));
  return resumed;
}

/**
 * The second-run rule, for any source: `file` imported, then imported again changes no table but
 * the run's own bookkeeping (its run row and its two audit entries) and leaves `snapshot` as it
 * was. Returns the second run's report (its counts: every item skipped or refused again).
 */
export async function expectRunAgainChangesNothing(
  db: Db,
  args: {
    accountId: number;
    source: keyof typeof IMPORT_SOURCES;
    file: string;
    over?: Partial<RunImportArgs>;
    snapshot?: (db: Db, accountId: number) => Promise<unknown>;
  },
) {
  const { accountId, source, file, over = {}, snapshot = importSnapshot } = args;
  await importFixture(db, accountId, source, file, over);
  const made = await snapshot(db, accountId);
  const before = await tableCounts(db);
  const again = await importFixture(db, accountId, source, file, over);
  expect(await tableCounts(db)).toEqual({
    ...before,
    import_runs: before.import_runs! + 1,
    audit_logs: before.audit_logs! + 2,
  });
  expect(await snapshot(db, accountId)).toEqual(made);
  for (const counts of Object.values(again.kinds)) expect(counts.create + counts.update).toBe(0);
  return again;
}

/** The story an import made of the source's `sourceId`, with its authors, sections and tags in order. */
export async function importedStory(db: Db, accountId: number, source: string, sourceId: string) {
  const record = await db.importRecord.findFirstOrThrow({
    where: { accountId, source, kind: "story", sourceId },
  });
  return db.story.findUniqueOrThrow({
    where: { id: record.targetId },
    include: {
      authors: { include: { author: true }, orderBy: { position: "asc" } },
      sections: { include: { section: true }, orderBy: { position: "asc" } },
      tags: { include: { tag: true }, orderBy: { position: "asc" } },
    },
  });
}

/**
 * The dry-run rule, for any source: a dry run of `file` changes no table, and plans what the real
 * run then does (the same counts, refusals and creations). Returns both reports.
 */
export async function expectDryRunPlansTheRun(
  db: Db,
  args: { accountId: number; source: keyof typeof IMPORT_SOURCES; file: string; over?: Partial<RunImportArgs> },
) {
  const { accountId, source, file, over = {} } = args;
  const before = await tableCounts(db);
  const dry = await importFixture(db, accountId, source, file, { ...over, dryRun: true });
  expect(await tableCounts(db)).toEqual(before);
  expect(dry).toMatchObject({ dryRun: true, runId: null, status: "completed" });
  const real = await importFixture(db, accountId, source, file, over);
  expect(dry.kinds).toEqual(real.kinds);
  expect(dry.lines.refuse).toEqual(real.lines.refuse);
  expect(dry.lines.create.map((l) => l.sourceId)).toEqual(real.lines.create.map((l) => l.sourceId));
  return { dry, real };
}

/**
 * Recurring USD plans in a "Digital" group of the account, one per [title, unit, cents], by title:
 * the plans an old system's subscriptions are mapped onto.
 */
export async function recurringPlans(
  db: Db,
  accountId: number,
  plans: readonly (readonly [title: string, unit: "MONTHS" | "YEARS", cents: number])[] = [
    ["Gold monthly", "MONTHS", 900],
    ["Gold yearly", "YEARS", 9000],
  ],
) {
  const group = await db.subscriptionGroup.create({ data: { accountId, name: "Digital" } });
  const made = new Map<string, Awaited<ReturnType<Db["subscriptionPlan"]["create"]>>>();
  for (const [title, unit, cents] of plans) {
    const plan = await db.subscriptionPlan.create({
      data: {
        accountId,
        groupId: group.id,
        title,
        durationLength: 1,
        durationUnit: unit,
        priceCents: cents,
        priceCurrency: "USD",
        recurring: true,
      },
    });
    made.set(title, plan);
  }
  return made;
}

/** Upload `file` as `owner` on the Import page (what POST /api/admin/imports does), its dry run queued. */
export async function uploadImportFile(
  db: Db,
  owner: TestStaff,
  args: { file: string; source: string; dir: string; options?: TImportOptions; now?: Date },
) {
  const stat = await fs.stat(args.file);
  return storeImportUpload(db, {
    actor: staffActor(owner.user),
    source: args.source,
    fileName: path.basename(args.file),
    options: args.options,
    body: Readable.toWeb(createReadStream(args.file)) as ReadableStream<Uint8Array>,
    contentLength: stat.size,
    maxBytes: 10 * 1024 * 1024,
    dir: args.dir,
    now: args.now ?? new Date(),
  });
}

/**
 * A temporary IMPORT_DIR for a test file's uploads: made before its tests, emptied before each,
 * removed after them. Returns the folder (read it inside a test).
 */
export function importDirForTests(prefix: string): () => string {
  let dir = "";
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    process.env.IMPORT_DIR = dir;
    resetEnvCache();
  });
  afterAll(async () => {
    delete process.env.IMPORT_DIR;
    resetEnvCache();
    await fs.rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const entry of await fs.readdir(dir)) await fs.rm(path.join(dir, entry), { recursive: true, force: true });
  });
  return () => dir;
}
