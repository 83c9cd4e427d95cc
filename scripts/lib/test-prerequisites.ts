/**
 * What npm test needs on the machine, made ready before the suites run: PostgreSQL
 * (TEST_DATABASE_URL, for the integration tests on PostgreSQL), Redis (TEST_REDIS_URL, for the
 * Redis rate-limit store) and Chromium's headless shell (CHROMIUM_PATH, for Playwright).
 *
 * For each one that is missing: install it (Debian's package, with apt-get as root or through
 * password-less `sudo -n`), start it when it is installed but not running, create the test
 * database, wait until it answers, and say so in one line. What cannot be done (not root and no
 * sudo, apt-get failing offline, a server on another host that does not answer) fails with one
 * line naming the command to run: a suite is never skipped silently. Servers on other hosts are
 * only checked, never installed or started.
 *
 * 1. Decide   decidePostgres, decideRedis, decideChromium: pure, from facts to the next step.
 * 2. Probe    the facts: who answers where, what is installed, root or sudo, apt-get.
 * 3. Run      ensureTestPrerequisites: probe → decide → act, until each one is ready or failed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// ─── 1. Decide ───────────────────────────────────────────────────────────────────────────────

type Privilege = "root" | "sudo" | "none";
/** What this machine lets us do: who we are, and whether it has Debian's package manager. */
export type System = { privilege: Privilege; hasApt: boolean };

export type Server = { host: string; port: number; local: boolean };

export type PostgresFacts = {
  server: Server & { database: string; user: string };
  /** The server accepts connections (for a server on another host: its port is open). */
  answers: boolean;
  /** The test database exists (checked on this machine's server only). */
  databaseExists: boolean;
  /** Why the server refused the connection when it is not "not running" or "no such database" (authentication…). */
  error?: string;
  /** Debian's cluster version under /etc/postgresql (e.g. "15"), when PostgreSQL is installed that way. */
  cluster?: string;
};
export type RedisFacts = { server: Server; answers: boolean; installed: boolean };
type ChromiumFacts = {
  path: string;
  exists: boolean;
  /** Debian's path, which apt-get install chromium-headless-shell fills. */ isDebianPath: boolean;
};

export type Action = "install" | "start" | "create-database";

export type Step =
  /** Nothing to do; `line` says what is there. */
  | { kind: "ready"; line: string }
  | { kind: "install"; name: string; package: string }
  | { kind: "start"; name: string; argv: string[] }
  | { kind: "create-database" }
  /** Cannot be made ready here: `line` says why and names the command to run. */
  | { kind: "fail"; line: string };

/**
 * Debian's Chromium headless shell (package chromium-headless-shell): the browser Playwright itself
 * runs headless tests in. The full browser (package chromium) in its headless mode took about a
 * third more CPU for the same specs (docs/decisions/0029).
 */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium-headless-shell";
const DEBIAN_CHROMIUM_PACKAGE = "chromium-headless-shell";
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]", ""]);

/** True for addresses of this machine, whose servers we may install and start. */
export const isLocalHost = (host: string) => LOCAL_HOSTS.has(host.toLowerCase());

/** The command a person runs to install `pkg` (shown in failure lines). */
const manualInstallCommand = (pkg: string, system: System) =>
  `${system.privilege === "root" ? "" : "sudo "}apt-get install -y ${pkg}`;

/** argv prefix that runs a command with the privileges needed to install or start services. */
const asAdmin = (system: System, argv: string[]) => (system.privilege === "sudo" ? ["sudo", "-n", ...argv] : argv);

/** The apt-get commands that install `pkg` (update first: a fresh machine has no package lists). */
export function aptCommands(pkg: string, system: System): string[][] {
  const apt = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"];
  return [asAdmin(system, [...apt, "update", "-qq"]), asAdmin(system, [...apt, "install", "-y", "-qq", pkg])];
}

function installOrFail(name: string, pkg: string, system: System, done: ReadonlySet<Action>, hint: string): Step {
  if (done.has("install")) {
    return { kind: "fail", line: `${name} is still missing after \`${manualInstallCommand(pkg, system)}\`. ${hint}` };
  }
  if (!system.hasApt) {
    return {
      kind: "fail",
      line: `${name} is missing and this machine has no apt-get to install it with: install ${name} (Debian: apt-get install -y ${pkg}), then run npm test again. ${hint}`,
    };
  }
  if (system.privilege === "none") {
    return {
      kind: "fail",
      line: `${name} is missing and this user cannot install it (not root, no password-less sudo): run \`${manualInstallCommand(pkg, system)}\`, then npm test again.`,
    };
  }
  return { kind: "install", name, package: pkg };
}

const where = (server: Server) => `${server.host}:${server.port}`;

export function decidePostgres(facts: PostgresFacts, system: System, done: ReadonlySet<Action>): Step {
  const { server } = facts;
  if (!server.local) {
    return facts.answers
      ? { kind: "ready", line: `PostgreSQL answers at ${where(server)} (TEST_DATABASE_URL)` }
      : {
          kind: "fail",
          line: `PostgreSQL is not reachable at ${where(server)} (TEST_DATABASE_URL): start it there, or unset TEST_DATABASE_URL to use this machine's.`,
        };
  }
  if (facts.answers) {
    if (facts.error) {
      return {
        kind: "fail",
        line: `PostgreSQL at ${where(server)} refused npm test's connection as ${server.user} (TEST_DATABASE_URL): ${facts.error}`,
      };
    }
    if (facts.databaseExists) {
      return { kind: "ready", line: `PostgreSQL answers at ${where(server)} (database ${server.database})` };
    }
    if (done.has("create-database")) {
      return {
        kind: "fail",
        line: `The database ${server.database} is still missing on ${where(server)}: run \`createdb -h ${server.host} -p ${server.port} -U ${server.user} ${server.database}\`.`,
      };
    }
    return { kind: "create-database" };
  }
  if (!facts.cluster) {
    return installOrFail("PostgreSQL", "postgresql", system, done, "(Or point TEST_DATABASE_URL at a running server.)");
  }
  const start = ["pg_ctlcluster", "--skip-systemctl-redirect", facts.cluster, "main", "start"];
  if (done.has("start")) {
    return {
      kind: "fail",
      line: `PostgreSQL ${facts.cluster} does not answer at ${where(server)} after \`${start.join(" ")}\`: see /var/log/postgresql/postgresql-${facts.cluster}-main.log.`,
    };
  }
  if (system.privilege === "none") {
    return {
      kind: "fail",
      line: `PostgreSQL ${facts.cluster} is installed but not running, and this user cannot start it (not root, no password-less sudo): run \`sudo ${start.join(" ")}\`, then npm test again.`,
    };
  }
  return { kind: "start", name: `PostgreSQL ${facts.cluster}`, argv: asAdmin(system, start) };
}

/** How npm test starts this machine's Redis: in the background, nothing written to disk. */
const redisStartArgv = (port: number) => [
  "redis-server",
  "--daemonize",
  "yes",
  "--bind",
  "127.0.0.1",
  "--port",
  String(port),
  "--save",
  "",
  "--appendonly",
  "no",
];

export function decideRedis(facts: RedisFacts, system: System, done: ReadonlySet<Action>): Step {
  const { server } = facts;
  if (facts.answers) return { kind: "ready", line: `Redis answers at ${where(server)}` };
  if (!server.local) {
    return {
      kind: "fail",
      line: `Redis is not reachable at ${where(server)} (TEST_REDIS_URL): start it there, or unset TEST_REDIS_URL to use this machine's.`,
    };
  }
  if (!facts.installed) {
    return installOrFail("Redis", "redis-server", system, done, "(Or point TEST_REDIS_URL at a running Redis.)");
  }
  const argv = redisStartArgv(server.port);
  if (done.has("start")) {
    return {
      kind: "fail",
      line: `Redis does not answer at ${where(server)} after \`${argv.map((a) => a || '""').join(" ")}\`: start it by hand and look at its output.`,
    };
  }
  // Any user may start Redis on an unprivileged port: no sudo needed.
  return { kind: "start", name: `Redis on ${where(server)}`, argv };
}

export function decideChromium(facts: ChromiumFacts, system: System, done: ReadonlySet<Action>): Step {
  if (facts.exists) return { kind: "ready", line: `Chromium is at ${facts.path}` };
  if (!facts.isDebianPath) {
    return {
      kind: "fail",
      line: `Chromium is missing at ${facts.path} (CHROMIUM_PATH): point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's ${DEBIAN_CHROMIUM}.`,
    };
  }
  return installOrFail("Chromium", DEBIAN_CHROMIUM_PACKAGE, system, done, "");
}

// ─── 2. Probe ────────────────────────────────────────────────────────────────────────────────

/** A program on PATH (or in the sbin folders, which a non-root PATH often lacks). */
function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/sbin"].filter(Boolean);
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function probeSystem(): System {
  const hasApt = findProgram("apt-get") !== undefined;
  if (process.getuid?.() === 0) return { privilege: "root", hasApt };
  const sudo = findProgram("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  return { privilege: sudo ? "sudo" : "none", hasApt };
}

/** Debian's first PostgreSQL cluster version (`ls /etc/postgresql | head -n1`), when pg_ctlcluster is there too. */
function debianCluster(): string | undefined {
  if (!findProgram("pg_ctlcluster")) return undefined;
  try {
    return fs
      .readdirSync("/etc/postgresql")
      .filter((v) => fs.existsSync(path.join("/etc/postgresql", v, "main")))
      .sort()[0];
  } catch {
    return undefined;
  }
}

function canConnect(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ""), port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

function postgresServer(url: string): PostgresFacts["server"] {
  const parsed = new URL(url);
  const host = parsed.hostname;
  return {
    host,
    port: Number(parsed.port || 5432),
    local: isLocalHost(host),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres",
    user: decodeURIComponent(parsed.username) || os.userInfo().username,
  };
}

/** Error codes meaning "no server there (yet)": not running, refusing, or still starting up. */
const NOT_RUNNING = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOENT", "57P03"]);

async function probePostgres(url: string): Promise<PostgresFacts> {
  const server = postgresServer(url);
  const cluster = debianCluster();
  if (!server.local) {
    return { server, answers: await canConnect(server.host, server.port), databaseExists: true, cluster };
  }
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { server, answers: true, databaseExists: true, cluster };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (code === "3D000") return { server, answers: true, databaseExists: false, cluster };
    if ((code && NOT_RUNNING.has(code)) || /timeout|terminated/i.test(message ?? "")) {
      return { server, answers: false, databaseExists: false, cluster };
    }
    return { server, answers: true, databaseExists: false, error: message ?? String(error), cluster };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createDatabase(url: string, name: string): Promise<void> {
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const { Client } = await import("pg");
  const client = new Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 3000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Redis answers when a PING gets a reply (other than "still loading its data"). */
function redisAnswers(host: string, port: number, timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ""), port });
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString("utf8");
      if (reply.includes("\r\n")) done(!reply.startsWith("-LOADING"));
    });
    socket.once("error", () => done(false));
    socket.once("end", () => done(false));
  });
}

export async function probeRedis(url: string): Promise<RedisFacts> {
  const parsed = new URL(url);
  const server = { host: parsed.hostname, port: Number(parsed.port || 6379), local: isLocalHost(parsed.hostname) };
  const answers = server.local
    ? await redisAnswers(server.host, server.port)
    : await canConnect(server.host, server.port);
  return { server, answers, installed: findProgram("redis-server") !== undefined };
}

function probeChromium(chromiumPath: string): ChromiumFacts {
  return { path: chromiumPath, exists: fs.existsSync(chromiumPath), isDebianPath: chromiumPath === DEBIAN_CHROMIUM };
}

// ─── 3. Run ──────────────────────────────────────────────────────────────────────────────────

export type Needs = {
  /** TEST_DATABASE_URL, when the PostgreSQL suite runs. */
  postgres?: string;
  /** TEST_REDIS_URL, when the integration suites run. */
  redis?: string;
  /** CHROMIUM_PATH (or Debian's), when the browser tests run. */
  chromium?: string;
};

type Log = { ok: (line: string) => void; fail: (line: string) => void };
const consoleLog: Log = { ok: (line) => console.log(`✓ ${line}`), fail: (line) => console.error(`✗ ${line}`) };

/**
 * Make every needed prerequisite ready, saying one line per prerequisite (or per thing done for
 * it). False when one cannot be: its line names the command to run.
 */
export async function ensureTestPrerequisites(needs: Needs, log: Log = consoleLog): Promise<boolean> {
  const system = probeSystem();
  let aptUpdated = false;

  const install = (name: string, pkg: string): boolean => {
    const [update, installArgv] = aptCommands(pkg, system);
    if (!aptUpdated) {
      // A failed update (offline) is not fatal by itself: the install below says whether it matters.
      run(update!);
      aptUpdated = true;
    }
    if (!run(installArgv!)) {
      log.fail(
        `Could not install ${name}: \`${manualInstallCommand(pkg, system)}\` failed (output above; is the Debian mirror reachable?). Install it, then run npm test again.`,
      );
      return false;
    }
    log.ok(`installed ${name} (apt-get install -y ${pkg})`);
    return true;
  };

  const createTestDatabase = async (url: string): Promise<boolean> => {
    const server = postgresServer(url);
    try {
      await createDatabase(url, server.database);
      log.ok(`created the database ${server.database} on ${where(server)} (it was missing)`);
      return true;
    } catch (error) {
      log.fail(
        `Could not create the database ${server.database} on ${where(server)} (${String(error)}): run \`createdb -h ${server.host} -p ${server.port} -U ${server.user} ${server.database}\`.`,
      );
      return false;
    }
  };

  /** Probe, decide, act, until ready or failed. Each action is tried once (decide fails when it did not help). */
  async function ensure<F extends { answers?: boolean; exists?: boolean }>(
    probe: () => Promise<F>,
    decide: (facts: F, system: System, done: ReadonlySet<Action>) => Step,
    url?: string,
  ): Promise<boolean> {
    const done = new Set<Action>();
    for (;;) {
      const step = decide(await probe(), system, done);
      switch (step.kind) {
        case "ready":
          // After an action its own line said what happened; otherwise say what is there.
          if (done.size === 0) log.ok(step.line);
          return true;
        case "fail":
          log.fail(step.line);
          return false;
        case "install":
          done.add("install");
          if (!install(step.name, step.package)) return false;
          break;
        case "start":
          done.add("start");
          run(step.argv, os.tmpdir());
          if (await waitUntil(async () => (await probe()).answers === true, 30_000)) {
            log.ok(`started ${step.name} (it was installed but not running)`);
          }
          break;
        case "create-database":
          done.add("create-database");
          if (!(await createTestDatabase(url!))) return false;
          break;
      }
    }
  }

  const results: boolean[] = [];
  const { postgres, redis, chromium } = needs;
  if (postgres) results.push(await ensure(() => probePostgres(postgres), decidePostgres, postgres));
  if (redis) results.push(await ensure(() => probeRedis(redis), decideRedis));
  if (chromium) results.push(await ensure(async () => probeChromium(chromium), decideChromium));
  return results.every(Boolean);
}

function run(argv: string[], cwd?: string): boolean {
  const result = spawnSync(argv[0]!, argv.slice(1), { stdio: ["ignore", "inherit", "inherit"], cwd });
  return result.status === 0;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
