/**
 * The app under test: the seed (scripts/db-seed.ts), instances started with scripts/start.ts
 * (`next start`, building first when the sources changed, under `flock /tmp/masthead-build.lock`),
 * each detached in a process group of its own so it can be stopped whole, and their own memory
 * figures (GET /api/metrics).
 */
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

import { APP_NAME, databaseUrl, dataDir, root } from "./options";
import { appGroups } from "./processes";

const servers: ChildProcess[] = [];
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");
const metricsToken = `bench-${crypto.randomUUID()}`;

/** Stop every instance started so far (the flock, start.ts and next start: one process group each). */
export function stopInstances(): void {
  for (const server of servers) {
    if (server.pid && server.exitCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}

/** The environment of an instance on `port`, its database connections named APP_NAME. */
function envFor(port: number, url = databaseUrl): NodeJS.ProcessEnv {
  const named = new URL(url);
  named.searchParams.set("application_name", APP_NAME);
  return {
    ...process.env,
    DATABASE_URL: named.toString(),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: `http://127.0.0.1:${port}`,
    PUBLISHING_ACCOUNT: "demo",
    LOG_LEVEL: "warn",
    JOBS_LOCAL_RUNNER: "false",
    // The baseline routes (/api/bench/empty…) answer only with this on.
    BENCH_ROUTES: "true",
    // The comment writers come from addresses of their own (X-Forwarded-For), as behind a proxy.
    TRUST_PROXY: "true",
    // The instances' own memory figures (live heap, response cache), read after each scenario.
    METRICS_TOKEN: metricsToken,
  };
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

/** The demo publisher, `stories` generated stories, the engagement and access data (topped up). */
export async function seed(stories: number, port: number): Promise<void> {
  const args = [tsx, "scripts/db-seed.ts", "--stories", String(stories), "--engagement", "--access"];
  await run(process.execPath, args, envFor(port));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Start one instance and wait for /api/health: the first under the build lock (it may build), the
 * others once it is up. Resolves to a function that stops it.
 */
export async function startInstance(port: number, options: { first: boolean; databaseUrl?: string }) {
  const env = envFor(port, options.databaseUrl);
  const command = options.first
    ? ["flock", ["/tmp/masthead-build.lock", process.execPath, tsx, "scripts/start.ts"]]
    : [process.execPath, [tsx, "scripts/start.ts"]];
  const child = spawn(command[0] as string, command[1] as string[], {
    cwd: root,
    env,
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  servers.push(child);
  if (child.pid) appGroups.add(child.pid);
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code) => reject(new Error(`the app on port ${port} exited (${code}) before it was ready`))),
  );
  await Promise.race([waitForHealth(child, `http://127.0.0.1:${port}`, 30 * 60_000), exited]);
  exited.catch(() => undefined);
  return () => {
    if (child.pid) appGroups.delete(child.pid);
    try {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
}

async function waitForHealth(server: ChildProcess, url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && server.exitCode === null && server.signalCode === null) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the app did not answer /api/health within ${timeoutMs / 60_000} minutes`);
}

export type Memory = { rssMb: number; heapMb: number; cacheMb: number };

/**
 * The instances' live heap (`masthead_nodejs_heap_size_used_bytes`) and response cache
 * (`masthead_response_cache_bytes`), summed, MB. NaN when an instance does not answer.
 */
export async function reportedMemory(bases: readonly string[]): Promise<{ heapMb: number; cacheMb: number }> {
  let heap = 0;
  let cache = 0;
  for (const base of bases) {
    try {
      const response = await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
      const text = await response.text();
      const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+]+)$`, "m").exec(text)?.[1] ?? NaN);
      heap += value("masthead_nodejs_heap_size_used_bytes");
      cache += value("masthead_response_cache_bytes");
    } catch {
      return { heapMb: NaN, cacheMb: NaN };
    }
  }
  return { heapMb: heap / 1024 / 1024, cacheMb: cache / 1024 / 1024 };
}
