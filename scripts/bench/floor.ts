/**
 * A scenario's floor: what its answer costs at the least, on the same database, with the same
 * parameters.
 *
 * - SQL: the statements one request of the scenario ran, replayed alone through `pg` (named
 *   prepared statements, as the app's are), again and again on one connection: PostgreSQL's CPU
 *   (that backend's, from /proc) and this process's (the protocol and the rows' decoding) per
 *   replay. The statements are captured on the wire: a capture instance of the app talks to
 *   PostgreSQL through `wireCapture`, a pass-through proxy that reads the extended protocol's
 *   Parse and Bind messages (and simple queries) while a request is recorded. Transaction control
 *   is left out; a request that writes is replayed inside BEGIN … ROLLBACK.
 * - JSON: the same answer (as the app sent it, parsed) serialised again with JSON.stringify.
 */
import net from "node:net";

import pg from "pg";

import { cpuOf } from "./processes";

/** A statement as the app sent it: through Parse/Bind, or a simple query (`simple`: no parameters). */
export type Statement = { sql: string; values: (string | Buffer | null)[]; simple?: boolean };

/** A proxy to PostgreSQL at `target`; `record()` starts keeping statements, `take()` hands them over. */
export async function wireCapture(target: { host: string; port: number }) {
  let recording: Statement[] | undefined;
  const server = net.createServer((clientSocket) => {
    const upstream = net.connect(target.port, target.host);
    clientSocket.pipe(upstream);
    upstream.pipe(clientSocket);
    const close = () => {
      clientSocket.destroy();
      upstream.destroy();
    };
    clientSocket.on("error", close);
    upstream.on("error", close);
    clientSocket.on("close", close);
    upstream.on("close", close);
    // The client's side of the protocol: startup messages carry no type byte, the rest do.
    const prepared = new Map<string, string>();
    let buffer = Buffer.alloc(0);
    let started = false;
    clientSocket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          // SSLRequest and GSSENCRequest come before the real startup message.
          if (code !== 80877103 && code !== 80877104) started = true;
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return;
        const type = String.fromCharCode(buffer[0]!);
        const body = buffer.subarray(5, 1 + length);
        buffer = buffer.subarray(1 + length);
        if (type === "P") {
          const [name, next] = cstring(body, 0);
          prepared.set(name, cstring(body, next)[0]);
        } else if (type === "B" && recording) {
          recording.push(bind(body, prepared));
        } else if (type === "Q" && recording) {
          recording.push({ sql: cstring(body, 0)[0], values: [], simple: true });
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    record: () => {
      recording = [];
    },
    take: (): Statement[] => {
      const taken = recording ?? [];
      recording = undefined;
      return taken;
    },
    close: () => server.close(),
  };
}

function cstring(buffer: Buffer, at: number): [string, number] {
  const end = buffer.indexOf(0, at);
  return [buffer.toString("utf8", at, end), end + 1];
}

/** Bind: portal, statement, parameter formats, parameters (-1: NULL), result formats. */
function bind(body: Buffer, prepared: Map<string, string>): Statement {
  let at = cstring(body, 0)[1];
  const [statement, next] = cstring(body, at);
  at = next;
  const formatCount = body.readInt16BE(at);
  at += 2;
  const formats = Array.from({ length: formatCount }, (_, i) => body.readInt16BE(at + 2 * i));
  at += 2 * formatCount;
  const count = body.readInt16BE(at);
  at += 2;
  const values: Statement["values"] = [];
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) {
      values.push(null);
      continue;
    }
    const bytes = body.subarray(at, at + length);
    at += length;
    const binary = (formatCount === 1 ? formats[0] : formats[i]) === 1;
    values.push(binary ? Buffer.from(bytes) : bytes.toString("utf8"));
  }
  return { sql: prepared.get(statement) ?? "", values };
}

const TRANSACTION_CONTROL = /^\s*(begin|start\s+transaction|commit|end|rollback|savepoint|release)\b/i;
const WRITES = /\b(insert|update|delete|pg_notify|nextval)\b/i;

export type SqlFloor = { statements: number; wallMs: number; dbMs: number; clientMs: number };

/** One prepared statement name per SQL text, across every replay (a connection keeps its names). */
const names = new Map<string, string>();
const nameOf = (sql: string) => {
  if (!names.has(sql)) names.set(sql, `floor_${names.size}`);
  return names.get(sql)!;
};

/**
 * Replay `captured` on `client` until `minMs` have passed (at least 20 times): wall time, the
 * backend's CPU and this process's CPU, each per replay.
 */
export async function sqlFloor(client: pg.Client, captured: readonly Statement[], minMs = 2000): Promise<SqlFloor> {
  const statements = captured.filter((s) => s.sql && !TRANSACTION_CONTROL.test(s.sql));
  const writes = statements.some((s) => WRITES.test(s.sql));
  const replay = async () => {
    if (writes) await client.query("BEGIN");
    for (const { sql, values, simple } of statements) {
      await (simple ? client.query(sql) : client.query({ name: nameOf(sql), text: sql, values }));
    }
    if (writes) await client.query("ROLLBACK");
  };
  await replay(); // prepares the statements, as the app's connections have
  const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const backend = rows[0]!.pid;
  const dbBefore = cpuOf([backend]).get(backend) ?? 0;
  const own = process.cpuUsage();
  const started = performance.now();
  let n = 0;
  while (n < 20 || performance.now() - started < minMs) {
    await replay();
    n++;
  }
  const wall = performance.now() - started;
  const mine = process.cpuUsage(own);
  const dbMs = (cpuOf([backend]).get(backend) ?? dbBefore) - dbBefore;
  return {
    statements: statements.length,
    wallMs: wall / n,
    dbMs: dbMs / n,
    clientMs: (mine.user + mine.system) / 1000 / n,
  };
}

/** CPU ms of JSON.stringify of `answer`, per call, over at least `minMs`. */
export function jsonFloor(answer: unknown, minMs = 500): number {
  const own = process.cpuUsage();
  const started = performance.now();
  let n = 0;
  let bytes = 0;
  while (n < 20 || performance.now() - started < minMs) {
    bytes += JSON.stringify(answer).length;
    n++;
  }
  const used = process.cpuUsage(own);
  return bytes > 0 ? (used.user + used.system) / 1000 / n : NaN;
}

/** A `pg` client on the bench's database and schema (DATABASE_URL's `?schema=`). */
export async function benchClient(databaseUrl: string, applicationName: string): Promise<pg.Client> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get("schema") ?? "public";
  url.searchParams.delete("schema");
  const client = new pg.Client({
    connectionString: url.toString(),
    options: `-c search_path="${schema}"`,
    application_name: applicationName,
  });
  await client.connect();
  return client;
}
