/**
 * SIGTERM under load (scripts/serve.mjs): health turns 503 "stopping" while the server keeps
 * serving for the drain period (clients here act as a load balancer: they stop sending once the
 * health check fails); then it stops listening, answers every request it had accepted (one still
 * sending its body when the signal came), lets the background job it is running finish and
 * release its lease, and exits 0. No client ever sees a connection reset. It does so too when
 * whatever read its output has gone (every write then fails with EPIPE).
 */
import http from "node:http";
import net from "node:net";

import { expect, test } from "@playwright/test";

import { holdScheduledStoryJob, specSchema, startBuiltServer, waitFor } from "./built-server";

const SCHEMA = `mh_shutdown_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 23;
/** The second test's server (+24 is another spec's). */
const QUIET_PORT = Number(process.env.E2E_PORT ?? 3210) + 26;

test.setTimeout(180_000);

const database = specSchema(SCHEMA);

/**
 * One GET of /api/health on a connection of its own: "ok" (200), "stopping" (503 while draining),
 * "refused" (not accepted) or what broke it.
 */
function probe(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => {
        if (res.statusCode === 200) resolve("ok");
        else if (res.statusCode === 503 && text.includes('"stopping"')) resolve("stopping");
        else resolve(`status ${res.statusCode}`);
      });
      res.on("error", (error) => resolve(`broken: ${error.message}`));
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve(error.code === "ECONNREFUSED" ? "refused" : `broken: ${error.code ?? error.message}`),
    );
  });
}

test("SIGTERM finishes the requests and the job in flight, refuses new connections, then exits 0", async () => {
  const db = database().prisma;
  const account = await db.account.create({ data: { slug: "shutdown", name: "Shutdown", jwtSecret: "x".repeat(32) } });
  // A job the server will be running when the signal comes: a scheduled publication held up on a
  // row lock this test takes (as in job-crash.spec.ts).
  const { story, job, blocker } = await holdScheduledStoryJob(db, {
    schema: SCHEMA,
    accountId: account.id,
    headline: "Published through a shutdown",
  });

  const server = await startBuiltServer({ port: PORT, schema: SCHEMA });
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
  try {
    await waitFor(
      async () => ((await db.job.findUniqueOrThrow({ where: { id: job.id } })).lockedBy ? true : undefined),
      30_000,
      "the job to be claimed",
    );

    // A request in flight: its headers are in, half of its body is still to come.
    const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
    const socket = net.connect(PORT, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    const answered = new Promise((resolve) => socket.once("end", resolve));
    socket.write(
      `POST /api/member/login HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );

    // Load: clients opening connection after connection, each stopping once health says "stopping".
    const outcomes: string[] = [];
    const clients = Array.from({ length: 8 }, async () => {
      for (;;) {
        const outcome = await probe(`${server.url}/api/health`);
        outcomes.push(outcome);
        if (outcome !== "ok") return;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.process.kill("SIGTERM");
    await Promise.all(clients);
    expect(outcomes.filter((o) => o !== "ok" && o !== "stopping")).toEqual([]);
    expect(outcomes.filter((o) => o === "ok").length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === "stopping")).toHaveLength(8);

    // After the drain (SHUTDOWN_DRAIN_MS), new connections are refused; the process still runs.
    await waitFor(
      async () => ((await probe(`${server.url}/api/health`)) === "refused" ? true : undefined),
      10_000,
      "the listener to close",
    );
    expect(server.process.exitCode).toBeNull();

    // The request in flight gets its whole answer (a wrong password: 401 in the JSON shape).
    socket.write(body.slice(10));
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"UNAUTHORIZED"');

    // The job is still running (held by the lock); once it can go on it finishes, then the process exits 0.
    expect(server.process.exitCode).toBeNull();
    await blocker.query("COMMIT");
    expect(await exited).toBe(0);
    expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "SUCCEEDED",
      lockedBy: null,
    });
    expect((await db.story.findUniqueOrThrow({ where: { id: story.id } })).status).toBe("PUBLISHED");
  } finally {
    await blocker.end().catch(() => {});
    await server.kill();
  }
});

test("SIGTERM ends a server whose output nobody reads any more", async () => {
  const server = await startBuiltServer({
    port: QUIET_PORT,
    schema: SCHEMA,
    env: { LOG_LEVEL: "info", SHUTDOWN_DRAIN_MS: "500" },
    output: "pipe",
  });
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
  try {
    // The reader goes (a closed terminal, a log shipper that stopped); then requests that log.
    server.process.stdout!.destroy();
    server.process.stderr!.destroy();
    for (const path of ["/api/health", "/api/v1/no-such-thing", "/api/v1/stories?limit=oops"])
      await fetch(server.url + path);
    server.process.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running after 20 s"), 20_000)),
    ]);
    expect(code).toBe(0);
  } finally {
    await server.kill();
  }
});
