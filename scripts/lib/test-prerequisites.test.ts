import { describe, expect, it } from "vitest";

import {
  aptCommands,
  decideChromium,
  decidePostgres,
  decideRedis,
  isLocalHost,
  type Action,
  type PostgresFacts,
  type RedisFacts,
  type System,
} from "./test-prerequisites";

const ROOT: System = { privilege: "root", hasApt: true };
const SUDO: System = { privilege: "sudo", hasApt: true };
const NOBODY: System = { privilege: "none", hasApt: true };
const NO_APT: System = { privilege: "root", hasApt: false };
const none = new Set<Action>();
const after = (...actions: Action[]) => new Set<Action>(actions);

const localPg = { host: "127.0.0.1", port: 5432, local: true, database: "test", user: "postgres" };
const pg = (facts: Partial<PostgresFacts>): PostgresFacts => ({
  server: localPg,
  answers: false,
  databaseExists: false,
  ...facts,
});
const localRedis = { host: "127.0.0.1", port: 6379, local: true };
const redis = (facts: Partial<RedisFacts>): RedisFacts => ({
  server: localRedis,
  answers: false,
  installed: false,
  ...facts,
});

describe("decidePostgres", () => {
  it("is ready when the local server answers and has the test database", () => {
    expect(decidePostgres(pg({ answers: true, databaseExists: true, cluster: "15" }), NOBODY, none)).toEqual({
      kind: "ready",
      line: "PostgreSQL answers at 127.0.0.1:5432 (database test)",
    });
  });

  it("installs it when missing, as root or through sudo", () => {
    expect(decidePostgres(pg({}), ROOT, none)).toEqual({ kind: "install", name: "PostgreSQL", package: "postgresql" });
    expect(decidePostgres(pg({}), SUDO, none)).toMatchObject({ kind: "install", package: "postgresql" });
  });

  it("starts the installed cluster when it is not running (through sudo when not root)", () => {
    expect(decidePostgres(pg({ cluster: "15" }), ROOT, none)).toEqual({
      kind: "start",
      name: "PostgreSQL 15",
      argv: ["pg_ctlcluster", "--skip-systemctl-redirect", "15", "main", "start"],
    });
    expect(decidePostgres(pg({ cluster: "15" }), SUDO, none)).toMatchObject({
      argv: ["sudo", "-n", "pg_ctlcluster", "--skip-systemctl-redirect", "15", "main", "start"],
    });
    // Installed by the step before: start it next.
    expect(decidePostgres(pg({ cluster: "16" }), ROOT, after("install"))).toMatchObject({ kind: "start" });
  });

  it("creates the test database when the server answers without it", () => {
    expect(decidePostgres(pg({ answers: true, cluster: "15" }), NOBODY, after("start"))).toEqual({
      kind: "create-database",
    });
  });

  it("fails with the command to run when this user can neither install nor start it", () => {
    expect(decidePostgres(pg({}), NOBODY, none)).toEqual({
      kind: "fail",
      line: expect.stringContaining("run `sudo apt-get install -y postgresql`") as string,
    });
    expect(decidePostgres(pg({ cluster: "15" }), NOBODY, none)).toEqual({
      kind: "fail",
      line: expect.stringContaining(
        "installed but not running, and this user cannot start it (not root, no password-less sudo): run `sudo pg_ctlcluster --skip-systemctl-redirect 15 main start`",
      ) as string,
    });
    expect(decidePostgres(pg({}), NO_APT, none)).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("no apt-get") as string,
    });
  });

  it("never repeats an action that did not help: it fails and says where to look", () => {
    expect(decidePostgres(pg({}), ROOT, after("install"))).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("still missing after `apt-get install -y postgresql`") as string,
    });
    expect(decidePostgres(pg({ cluster: "15" }), ROOT, after("start"))).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("/var/log/postgresql/postgresql-15-main.log") as string,
    });
    expect(decidePostgres(pg({ answers: true, cluster: "15" }), ROOT, after("create-database"))).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("createdb -h 127.0.0.1 -p 5432 -U postgres test") as string,
    });
  });

  it("reports a refused sign-in (not a missing server) as it is", () => {
    expect(
      decidePostgres(pg({ answers: true, error: 'password authentication failed for user "postgres"' }), ROOT, none),
    ).toMatchObject({ kind: "fail", line: expect.stringContaining("password authentication failed") as string });
  });

  it("only checks a server on another host: it never installs or starts anything for it", () => {
    const remote = { host: "db.internal", port: 5433, local: false, database: "ci", user: "ci" };
    expect(decidePostgres(pg({ server: remote, answers: true }), ROOT, none)).toMatchObject({ kind: "ready" });
    expect(decidePostgres(pg({ server: remote, cluster: "15" }), ROOT, none)).toEqual({
      kind: "fail",
      line: "PostgreSQL is not reachable at db.internal:5433 (TEST_DATABASE_URL): start it there, or unset TEST_DATABASE_URL to use this machine's.",
    });
  });
});

describe("decideRedis", () => {
  it("is ready when it answers; starts it when installed (no sudo needed); installs it when missing", () => {
    expect(decideRedis(redis({ answers: true }), NOBODY, none)).toEqual({
      kind: "ready",
      line: "Redis answers at 127.0.0.1:6379",
    });
    expect(decideRedis(redis({ installed: true }), NOBODY, none)).toEqual({
      kind: "start",
      name: "Redis on 127.0.0.1:6379",
      argv: [
        "redis-server",
        "--daemonize",
        "yes",
        "--bind",
        "127.0.0.1",
        "--port",
        "6379",
        "--save",
        "",
        "--appendonly",
        "no",
      ],
    });
    expect(decideRedis(redis({}), SUDO, none)).toEqual({ kind: "install", name: "Redis", package: "redis-server" });
  });

  it("fails with the command to run when it cannot install, or when starting did not help", () => {
    expect(decideRedis(redis({}), NOBODY, none)).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("run `sudo apt-get install -y redis-server`") as string,
    });
    expect(decideRedis(redis({ installed: true }), ROOT, after("start"))).toMatchObject({
      kind: "fail",
      line: expect.stringContaining('redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ""') as string,
    });
  });

  it("only checks a Redis on another host", () => {
    const remote = { host: "cache.internal", port: 6380, local: false };
    expect(decideRedis(redis({ server: remote, installed: true }), ROOT, none)).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("not reachable at cache.internal:6380 (TEST_REDIS_URL)") as string,
    });
    expect(decideRedis(redis({ server: remote, answers: true }), ROOT, none)).toMatchObject({ kind: "ready" });
  });
});

describe("decideChromium", () => {
  it("installs Debian's chromium-headless-shell when /usr/bin/chromium-headless-shell is missing, and only then", () => {
    const debian = { path: "/usr/bin/chromium-headless-shell", isDebianPath: true };
    expect(decideChromium({ ...debian, exists: true }, NOBODY, none)).toMatchObject({ kind: "ready" });
    expect(decideChromium({ ...debian, exists: false }, ROOT, none)).toEqual({
      kind: "install",
      name: "Chromium",
      package: "chromium-headless-shell",
    });
    expect(decideChromium({ ...debian, exists: false }, NOBODY, none)).toMatchObject({
      kind: "fail",
      line: expect.stringContaining("`sudo apt-get install -y chromium-headless-shell`") as string,
    });
    expect(decideChromium({ ...debian, exists: false }, ROOT, after("install"))).toMatchObject({ kind: "fail" });
  });

  it("does not install anything for a CHROMIUM_PATH of one's own: it says the file is missing", () => {
    expect(decideChromium({ path: "/opt/chrome/chrome", isDebianPath: false, exists: false }, ROOT, none)).toEqual({
      kind: "fail",
      line: "Chromium is missing at /opt/chrome/chrome (CHROMIUM_PATH): point CHROMIUM_PATH at a Chromium binary, or unset it to use Debian's /usr/bin/chromium-headless-shell.",
    });
  });
});

describe("helpers", () => {
  it("apt-get runs non-interactively, through sudo -n when not root", () => {
    expect(aptCommands("redis-server", ROOT)).toEqual([
      ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "update", "-qq"],
      ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "redis-server"],
    ]);
    expect(aptCommands("chromium", SUDO).map((argv) => argv.slice(0, 3))).toEqual([
      ["sudo", "-n", "env"],
      ["sudo", "-n", "env"],
    ]);
  });

  it("tells this machine's addresses from other hosts", () => {
    for (const host of ["localhost", "127.0.0.1", "::1", "[::1]", "LOCALHOST"])
      expect(isLocalHost(host), host).toBe(true);
    for (const host of ["db", "10.0.0.5", "postgres.example.com"]) expect(isLocalHost(host), host).toBe(false);
  });
});
