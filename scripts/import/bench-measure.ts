/**
 * The measuring loop the import benchmarks share (bench-import.ts: a Disqus export;
 * bench-content-import.ts: a WordPress export): write the generated file to a temporary folder,
 * open the database (DATABASE_URL in a schema of its own, dropped at the end, or an in-memory
 * PGlite whose data then lives in this process), make a fresh account, run a dry run and (unless
 * `dryRunOnly`) a real run of the file into it while sampling the process's resident size, hand
 * the figures to `print`, and clean up whatever happens.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { systemActor } from "../../server/auth/actor";
import { openDatabase, type Db } from "../../server/db/client";
import type { DatabaseConfig } from "../../server/db/config";
import { applyMigrations } from "../../server/db/migrate";
import type { ImportReport } from "../../server/imports/report";
import { runImport } from "../../server/imports/runner";
import type { ImportSource } from "../../server/imports/types";

/** One run's figures. */
type BenchRun = { report: ImportReport; seconds: number; peakMb: number };

type BenchContext = {
  db: Db;
  config: DatabaseConfig;
  accountId: number;
  /** The generated file's size. */
  megabytes: number;
  /** Resident size before the runs. */
  baselineMb: number;
  dry: BenchRun;
  real: BenchRun | null;
  /** A run as one line: its time, `items / seconds` per second, its peak. */
  line: (name: string, run: BenchRun) => string;
};

export async function measureImport(args: {
  /** Names the temporary folder and the PostgreSQL schema ("import", "content"). */
  name: string;
  fileName: string;
  writeExport: (file: string) => Promise<void>;
  source: ImportSource;
  batchSize: number;
  /** How many items the file holds, and what they are called per second ("comments"). */
  items: number;
  unit: string;
  dryRunOnly?: boolean;
  /** Anything the account needs before the runs (its publication settings). */
  prepareAccount?: (db: Db, accountId: number) => Promise<void>;
  print: (ctx: BenchContext) => Promise<void> | void;
}): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${args.name}-`));
  const file = path.join(dir, args.fileName);
  await args.writeExport(file);
  const megabytes = fs.statSync(file).size / 1e6;

  const config: DatabaseConfig = process.env.DATABASE_URL
    ? { kind: "postgresql", url: process.env.DATABASE_URL, schema: `mh_bench_${args.name}_${process.pid}` }
    : { kind: "pglite", dir: "memory://" };
  const database = await openDatabase(config);
  const db = database.prisma;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    await applyMigrations(database.adapter);
    const account = await db.account.create({
      data: { slug: "bench", name: "Bench", domain: "news.example.com", jwtSecret: "x".repeat(32) },
    });
    await args.prepareAccount?.(db, account.id);
    const baselineMb = process.memoryUsage().rss / 1e6;
    const run = async (dryRun: boolean): Promise<BenchRun> => {
      peak = process.memoryUsage().rss;
      const started = performance.now();
      const report = await runImport(db, {
        source: args.source,
        file: { path: file, name: args.fileName },
        accountId: account.id,
        actor: systemActor(account.id, "bench"),
        dryRun,
        batchSize: args.batchSize,
      });
      return { report, seconds: (performance.now() - started) / 1000, peakMb: peak / 1e6 };
    };
    const dry = await run(true);
    const real = args.dryRunOnly ? null : await run(false);
    const line = (name: string, r: BenchRun) =>
      `${name.padEnd(9)} ${r.seconds.toFixed(1).padStart(7)} s  ${Math.round(args.items / r.seconds)
        .toString()
        .padStart(6)} ${args.unit}/s  peak RSS ${r.peakMb.toFixed(0)} MB`;
    console.log(`database  ${config.kind === "pglite" ? "PGlite (in memory, in this process)" : "PostgreSQL"}`);
    await args.print({ db, config, accountId: account.id, megabytes, baselineMb, dry, real, line });
  } finally {
    clearInterval(sampler);
    if (config.kind === "postgresql") await db.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${config.schema}" CASCADE`);
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A file written in a stream: `write` waits when the stream asks it to. */
export async function writeStream(file: string, fill: (write: (s: string) => Promise<void>) => Promise<void>) {
  const out = fs.createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", r)));
  await fill(write);
  await new Promise<void>((resolve) => out.end(resolve));
}
