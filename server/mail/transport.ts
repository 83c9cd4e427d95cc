/**
 * Where mail goes. The outbox (./outbox.ts) hands each message to a transport from its
 * "mail.send" job; a transport that throws makes the job retry with backoff, and one that throws
 * a `PermanentMailError` fails the mail at once (retrying cannot change the answer).
 *
 * Two transports, chosen by the configuration (`mailTransportFromEnv`):
 * - "log" (default, development): each mail is written to the application log; the dashboard's
 *   Outbox page shows the bodies, which is where reset links are read;
 * - "smtp" (SMTP_URL, MAIL_FROM): nodemailer hands each mail to an SMTP server.
 *
 * The SMTP password is in SMTP_URL only: it is never logged, never put in an error kept on the
 * mail (`lastError`, shown on the Outbox page) and never described (`describeMailTransport`).
 */
import net from "node:net";

import nodemailer from "nodemailer";

import { nullPrototypeRecord } from "@/server/own-keys";

import type { Env } from "../../env.js";
import { log } from "../log";
import { mailParts } from "./quoted-printable";

export type OutgoingMail = {
  id: string;
  accountId: number;
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** The HTML part, when there is one. */
  html?: string | null;
  /** Extra headers (a JSON object of strings, as the outbox stores them). */
  headers?: unknown;
  /** The sender, when not MAIL_FROM ("Name <address>": a newsletter's sender). */
  from?: string;
};

/** The extra headers of a mail, strings only (anything else in the stored JSON is dropped). */
export function extraHeaders(mail: Pick<OutgoingMail, "headers">): Record<string, string> {
  const headers = nullPrototypeRecord<string>();
  if (!mail.headers || typeof mail.headers !== "object" || Array.isArray(mail.headers)) return headers;
  for (const [name, value] of Object.entries(mail.headers)) {
    if (typeof value === "string" && /^[A-Za-z0-9-]+$/.test(name) && !/[\r\n]/.test(value)) headers[name] = value;
  }
  return headers;
}

export type MailTransport = {
  /** Shown on the Outbox page ("log", "smtp"). */
  name: string;
  send(mail: OutgoingMail): Promise<void>;
  /** Close what the transport keeps open (SMTP: its pooled connections); a mail sent after it opens them again. */
  close?(): void;
};

// The mail jobs send through the transport the process built (server/background/start.ts).
declare module "../jobs/define" {
  interface JobDeps {
    mail: MailTransport;
  }
}

/** Mail written to the log, body included (bodies carry reset links, which is the point in development). */
const logTransport: MailTransport = {
  name: "log",
  async send(mail) {
    log.info("mail written to the log (no mail transport configured)", {
      id: mail.id,
      accountId: mail.accountId,
      kind: mail.kind,
      ...(mail.from ? { from: mail.from } : {}),
      to: mail.to,
      subject: mail.subject,
      body: mail.text,
    });
  },
};

// ─── SMTP ────────────────────────────────────────────────────────────────────────────────────

/** The server refused this mail for good: the job fails it now instead of retrying. */
export class PermanentMailError extends Error {
  constructor(
    message: string,
    /** The SMTP command refused ("RCPT TO": the recipient; "MAIL FROM", "DATA": the sender or the message). */
    readonly command?: string,
  ) {
    super(message);
    this.name = "PermanentMailError";
  }
}

type SmtpError = Error & { code?: string; responseCode?: number; command?: string };

/**
 * Whether an SMTP failure is about this message and final, so retrying is pointless.
 *
 * RFC 5321 (4.2.1): a 5yz reply is a permanent negative completion, the client "SHOULD NOT repeat
 * the exact request"; 4yz replies (greylisting, a full mailbox, a busy server) are transient. So a
 * 5xx answer to the envelope or the message (MAIL FROM, RCPT TO, DATA: nodemailer's EENVELOPE and
 * EMESSAGE) fails the mail at once, and so does an address nodemailer itself refuses before
 * sending (no reply code: it will be refused the same way every time).
 *
 * Everything else is retried: connection failures, timeouts, 4xx replies, and authentication
 * failures even with a 535. A wrong password or a server that is down concerns every mail, not
 * this one: the operator fixes the configuration and the mail goes out on a later attempt.
 */
export function isPermanentSmtpFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, responseCode, command } = error as SmtpError;
  if (code !== "EENVELOPE" && code !== "EMESSAGE") return false;
  if (typeof responseCode === "number") return responseCode >= 500 && responseCode < 600;
  return command === "API";
}

type SmtpConfig = { url: string; from: string };

/** Where SMTP mail goes, without credentials: "smtp.example.com:587 (STARTTLS), from news@example.com". */
function describeSmtp(config: SmtpConfig): string {
  const url = new URL(config.url);
  const secure = url.protocol === "smtps:";
  const port = url.port || (secure ? "465" : "587");
  return `${url.hostname}:${port} (${secure ? "TLS" : "STARTTLS when offered"}), from ${config.from}`;
}

/** A message that may carry the password or the URL, with both taken out. */
function withoutSecrets(message: string, url: URL): string {
  let text = message;
  for (const secret of [url.password, decodeURIComponent(url.password)]) {
    if (secret.length >= 3) text = text.split(secret).join("[redacted]");
  }
  return text;
}

/** The domain of the sender, for Message-IDs. */
function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf("@") + 1) || "masthead.invalid";
}

/**
 * The encoding nodemailer would choose for a mail's parts (quoted-printable when Latin letters
 * outnumber the characters it would escape, else base64), counted in one pass: nodemailer's own
 * choice builds an array of every letter of the message, much of the cost of a long mail.
 */
function textEncodingOf(...parts: string[]): "quoted-printable" | "base64" {
  let latin = 0;
  let other = 0;
  for (const text of parts) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) latin++;
      else if (c >= 0x80 || c <= 0x08 || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f)) other++;
    }
  }
  return other < latin ? "quoted-printable" : "base64";
}

/** SMTP connections kept open at once, and mails sent on one before it is closed and another opened. */
const SMTP_POOL = { maxConnections: 5, maxMessages: 1000 };

/**
 * The TCP connection of a pooled SMTP connection, opened here with Nagle's algorithm off
 * (TCP_NODELAY) and handed to nodemailer as already connected (it starts TLS on it for smtps:,
 * STARTTLS as offered). nodemailer's own socket keeps Nagle on, and a message goes out in several
 * small writes (the DATA stream's chunks, then the final dot), so each mail waited for the
 * server's delayed acknowledgement, 40 ms on Linux: over a pooled connection that capped a newsletter
 * send at about 20 mails a second a connection (docs/performance.md "Newsletters").
 */
function noDelaySocket(
  options: { host: string; port: number; connectionTimeout: number },
  callback: (error: Error | null, socket: { connection: net.Socket } | false) => void,
): void {
  const socket = net.connect({ host: options.host, port: options.port, noDelay: true, keepAlive: true });
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    // `settle` stays an error listener: nodemailer adds its own when it takes the socket.
    if (error) {
      socket.destroy();
      callback(error, false);
    } else callback(null, { connection: socket });
  };
  const timer = setTimeout(
    () => settle(Object.assign(new Error("Connection timeout"), { code: "ETIMEDOUT" })),
    options.connectionTimeout,
  );
  socket.once("connect", () => settle(null));
  socket.once("error", settle);
}

/**
 * Mail through an SMTP server (nodemailer), over a pool of SMTP_POOL.maxConnections connections
 * kept open and reused: a mail costs its MAIL FROM, RCPT TO and DATA, not a connection, a
 * greeting, EHLO and a login each (newsletter sends hand off hundreds a second; the outbox's mail
 * shares the pool). A mail is never sent again by the pool itself: a connection that closes while
 * it carries one fails that mail (`maxRequeues: 0`; the server may have accepted it), and the
 * caller's own retry decides, as for any failure. Each message has the Message-ID
 * `<outbox id@sender domain>`: a mail sent again after a crash between the server's acceptance and
 * the outbox's write keeps the same id, so receiving systems can tell the copies apart.
 */
export function smtpTransport(config: SmtpConfig): MailTransport {
  const url = new URL(config.url);
  const secure = url.protocol === "smtps:";
  const options = {
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    pool: true as const,
    ...SMTP_POOL,
    maxRequeues: 0,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // Well inside the job's 60-second lease: a hung server fails the attempt, which is retried (an
    // idle pooled connection past socketTimeout is closed, and opened again for the next mail).
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    // nodemailer logs nothing unless asked; keep it that way (its debug output includes AUTH lines).
    logger: false,
    debug: false,
  };
  // Opened at the first mail, and again at the first one after close().
  const open = () =>
    nodemailer.createTransport({
      ...options,
      getSocket: (_: unknown, callback: Parameters<typeof noDelaySocket>[1]) => noDelaySocket(options, callback),
    });
  let pool: ReturnType<typeof open> | undefined;
  const domain = senderDomain(config.from);
  return {
    name: "smtp",
    async send(mail) {
      try {
        const textEncoding = textEncodingOf(mail.text, mail.html ?? "");
        await (pool ??= open()).sendMail({
          from: mail.from ?? config.from,
          to: mail.to,
          subject: mail.subject,
          // Quoted-printable parts are encoded there, the bytes nodemailer would write.
          ...mailParts(mail.text, mail.html ?? undefined, textEncoding),
          textEncoding,
          messageId: `<${mail.id}@${domain}>`,
          headers: { ...extraHeaders(mail), "X-Masthead-Kind": mail.kind },
        });
      } catch (error) {
        const message = withoutSecrets(error instanceof Error ? error.message : String(error), url);
        if (isPermanentSmtpFailure(error)) throw new PermanentMailError(message, (error as SmtpError).command);
        throw new Error(message);
      }
    },
    close() {
      pool?.close();
      pool = undefined;
    },
  };
}

// ─── From the configuration ──────────────────────────────────────────────────────────────────

type MailEnv = Pick<Env, "SMTP_URL" | "MAIL_FROM">;

/** The transport the configuration names: SMTP with SMTP_URL (env.js requires MAIL_FROM with it), else the log. */
export function mailTransportFromEnv(env: MailEnv): MailTransport {
  if (env.SMTP_URL && env.MAIL_FROM) return smtpTransport({ url: env.SMTP_URL, from: env.MAIL_FROM });
  return logTransport;
}

/** What the Outbox page says about delivery: the transport's name and, for SMTP, where (no credentials). */
export function describeMailTransport(env: MailEnv): { name: "log" | "smtp"; detail: string | null } {
  if (env.SMTP_URL && env.MAIL_FROM)
    return { name: "smtp", detail: describeSmtp({ url: env.SMTP_URL, from: env.MAIL_FROM }) };
  return { name: "log", detail: null };
}
