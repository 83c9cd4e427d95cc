/**
 * A real SMTP server on 127.0.0.1 for mail tests (the `smtp-server` package): requires the given
 * login, records every message it accepts (envelope and raw RFC 5322 text) and answers RCPT TO as
 * the test says, recipient by recipient.
 */
import type { AddressInfo, Socket } from "node:net";

import { SMTPServer } from "smtp-server";

export type ReceivedMessage = { from: string; to: string[]; raw: string };

/** How to answer RCPT TO for `address` the n-th time (0-based) it is offered: accept, or an SMTP error. */
type RcptBehaviour = (address: string, n: number) => "accept" | { code: number; message: string };

export type TestSmtpServer = {
  port: number;
  received: ReceivedMessage[];
  /** Failed logins, by the user name given. */
  authFailures: string[];
  /** Connections opened to it so far. */
  connections: () => number;
  setRcptBehaviour: (b: RcptBehaviour) => void;
  close: () => Promise<void>;
};

export async function startSmtpServer(login: { user: string; pass: string }): Promise<TestSmtpServer> {
  const received: ReceivedMessage[] = [];
  const authFailures: string[] = [];
  const offered = new Map<string, number>();
  let behaviour: RcptBehaviour = () => "accept";
  let connections = 0;

  const server = new SMTPServer({
    // Plain text on loopback: no STARTTLS (its self-signed certificate would be refused), and
    // AUTH allowed without TLS so the test can check the login.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    // Senders keep pooled connections open: closing waits this long for them, then ends them (421).
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.pass) return callback(null, { user: auth.username });
      authFailures.push(auth.username ?? "");
      return callback(Object.assign(new Error("Authentication credentials invalid"), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const n = offered.get(address.address) ?? 0;
      offered.set(address.address, n + 1);
      const answer = behaviour(address.address, n);
      if (answer === "accept") return callback();
      return callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  // smtp-server writes each reply to pipelined commands on its own; with Nagle on, the second
  // waited for the client's delayed acknowledgement (40 ms). An MTA such as Postfix flushes the
  // replies to a pipelined group in one write, so the sink answers without that wait.
  server.server.on("connection", (socket: Socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    authFailures,
    connections: () => connections,
    setRcptBehaviour: (b) => {
      behaviour = b;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A received message's headers (unfolded, names lower-cased) and its body with quoted-printable
 * decoded (soft breaks joined, =XX bytes read as UTF-8).
 */
export function parseReceivedMail(raw: string): { headers: Map<string, string>; body: string } {
  const [head = "", ...rest] = raw.split("\r\n\r\n");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  const body = rest
    .join("\r\n\r\n")
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { headers, body: Buffer.from(body, "latin1").toString("utf8") };
}
