/**
 * CPU and memory of the app's processes and of its PostgreSQL backends, from /proc (Linux; the
 * database is local). The app: every process in the instances' process groups. The database: the
 * backends whose application_name is the instances' (APP_NAME), so other work on a shared
 * PostgreSQL server is not counted; what a backend hands to PostgreSQL's own background processes
 * (WAL writer, autovacuum) is not counted either.
 */
import fs from "node:fs";

import type pg from "pg";

import { APP_NAME } from "./options";

/** USER_HZ: Linux reports process times in 1/100 s on every platform Node.js runs on. */
const TICK_MS = 1000 / 100;

/** The process groups of the app's instances (each started detached, its own group). */
export const appGroups = new Set<number>();

type ProcessStat = { pid: number; fields: string[] };

/** Fields after the command's closing parenthesis: state(0) ppid pgrp … utime(11) stime(12). */
function stat(pid: number | string): ProcessStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return { pid: Number(pid), fields: text.slice(text.lastIndexOf(")") + 2).split(" ") };
  } catch {
    return undefined; // the process ended meanwhile
  }
}

const used = (s: ProcessStat) => (Number(s.fields[11]) + Number(s.fields[12])) * TICK_MS;

function appProcesses(): ProcessStat[] {
  const found: ProcessStat[] = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const s = stat(pid);
    if (s && appGroups.has(Number(s.fields[2]))) found.push(s);
  }
  return found;
}

/** CPU ms used so far by each process of `pids`, by pid. */
export function cpuOf(pids: Iterable<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const s = stat(pid);
    if (s) out.set(pid, used(s));
  }
  return out;
}

/** The pids of the instances' PostgreSQL backends now. */
async function appBackends(client: pg.Client): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = $1", [
    APP_NAME,
  ]);
  return rows.map((row) => row.pid);
}

type CpuSample = { app: number; db: Map<number, number> };

/** A reading to subtract from a later one (`cpuSince`). */
export async function sampleCpu(client: pg.Client): Promise<CpuSample> {
  const app = appProcesses().reduce((sum, s) => sum + used(s), 0);
  return { app, db: cpuOf(await appBackends(client)) };
}

/**
 * CPU ms since `before`: the app's processes, and the backends (a backend opened since counts
 * whole; one closed since is lost, which the pools' long-lived connections make rare).
 */
export async function cpuSince(client: pg.Client, before: CpuSample): Promise<{ app: number; db: number }> {
  const after = await sampleCpu(client);
  let db = 0;
  for (const [pid, ms] of after.db) db += ms - (before.db.get(pid) ?? 0);
  return { app: after.app - before.app, db };
}

/** Resident memory of every process of the app's instances, MB. */
export function residentMegabytes(): number {
  let kb = 0;
  for (const { pid } of appProcesses()) {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) kb += Number(rss[1]);
    } catch {
      // the process ended meanwhile
    }
  }
  return kb / 1024;
}
