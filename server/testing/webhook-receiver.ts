/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (raw body, headers)
 * and answers as the test says, request by request.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

type ReceivedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
};
/** What to do with the n-th request (0-based): answer with a status, redirect, or never answer. */
type Behaviour = (
  n: number,
  request: ReceivedRequest,
) => { status: number; body?: string; headers?: Record<string, string> } | "hang";

export type Receiver = {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  setBehaviour: (b: Behaviour) => void;
  close: () => Promise<void>;
};

export async function startReceiver(
  behaviour: Behaviour = () => ({ status: 200, body: "ok" }),
  port = 0,
): Promise<Receiver> {
  let current = behaviour;
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      const n = requests.length;
      requests.push(received);
      const answer = current(n, received);
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    requests,
    setBehaviour: (b) => {
      current = b;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A fake clock that tests move by hand. */
export function fakeClock(start = new Date("2026-11-22T12:00:00.000Z")) {
  let now = start.getTime();
  const clock = () => new Date(now);
  return Object.assign(clock, {
    advance: (ms: number) => {
      now += ms;
    },
    set: (date: Date) => {
      now = date.getTime();
    },
  });
}
