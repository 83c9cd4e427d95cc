// The outbox over SMTP: a real SMTP server (smtp-server) on 127.0.0.1, the real job engine, both databases.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { parseEnv, resetEnvCache } from "@/env.js";

import { getDb } from "../db";
import { runJobsNow, testJobDeps } from "../testing/jobs";
import { startSmtpServer, type TestSmtpServer } from "../testing/smtp-server";
import { listOutgoingEmails, queueEmail } from "./outbox";
import { describeMailTransport, isPermanentSmtpFailure, mailTransportFromEnv, type MailTransport } from "./transport";

const PASSWORD = "s3cr3t-p4ss/word";
const FROM = "The Gazette <news@gazette.test>";

let smtp: TestSmtpServer;
let smtpUrl: string;

beforeAll(async () => {
  smtp = await startSmtpServer({ user: "mailer", pass: PASSWORD });
  smtpUrl = `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${smtp.port}`;
});

afterAll(async () => {
  await smtp.close();
});

beforeEach(() => {
  smtp.received.length = 0;
  smtp.authFailures.length = 0;
  smtp.setRcptBehaviour(() => "accept");
});

async function account() {
  return (await getDb()).account.create({ data: { slug: "smtp", name: "smtp", jwtSecret: "x".repeat(32) } });
}

/** The transport the configuration chooses, through env.js as the server does. */
function transportFor(url: string): MailTransport {
  return mailTransportFromEnv(parseEnv({ SMTP_URL: url, MAIL_FROM: FROM }));
}

function header(raw: string, name: string): string | undefined {
  const head = raw.split("\r\n\r\n")[0] ?? "";
  // Unfold continuation lines, then find the header.
  const lines = head.replace(/\r\n[ \t]+/g, " ").split("\r\n");
  return lines
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
    ?.slice(name.length + 1)
    .trim();
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("mail over SMTP", () => {
  it("is chosen by SMTP_URL, and described without its password", () => {
    expect(mailTransportFromEnv(parseEnv({})).name).toBe("log");
    expect(transportFor(smtpUrl).name).toBe("smtp");
    const described = describeMailTransport(parseEnv({ SMTP_URL: smtpUrl, MAIL_FROM: FROM }));
    expect(described).toEqual({
      name: "smtp",
      detail: `127.0.0.1:${smtp.port} (STARTTLS when offered), from ${FROM}`,
    });
    expect(JSON.stringify(described)).not.toContain("p4ss");
  });

  it("delivers what the outbox holds: sender, recipient, subject, body, Message-ID", async () => {
    const db = await getDb();
    const { id: accountId } = await account();
    const now = new Date("2026-03-01T10:00:00Z");
    const { id } = await queueEmail(db, {
      accountId,
      to: "reader@example.com",
      subject: "Reset your password",
      text: "Open https://gazette.test/reset-password?token=abc123 within an hour.",
      kind: "member.password_reset",
      now,
    });

    await runJobsNow(db, testJobDeps({ mail: transportFor(smtpUrl), clock: () => now }));

    expect(smtp.authFailures).toEqual([]);
    expect(smtp.received).toHaveLength(1);
    const [message] = smtp.received;
    expect(message!.from).toBe("news@gazette.test");
    expect(message!.to).toEqual(["reader@example.com"]);
    expect(header(message!.raw, "From")).toBe(FROM);
    expect(header(message!.raw, "To")).toBe("reader@example.com");
    expect(header(message!.raw, "Subject")).toBe("Reset your password");
    expect(header(message!.raw, "Message-ID")).toBe(`<${id}@gazette.test>`);
    expect(header(message!.raw, "X-Masthead-Kind")).toBe("member.password_reset");
    expect(message!.raw.split("\r\n\r\n").slice(1).join("\r\n\r\n")).toContain(
      "Open https://gazette.test/reset-password?token=abc123 within an hour.",
    );
    expect(await db.outgoingEmail.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "SENT",
      attempts: 1,
      lastError: null,
      sentAt: now,
    });
  });

  it("keeps its connections open: many mails over a few logins, and a mail after close() opens them again", async () => {
    const transport = transportFor(smtpUrl);
    const opened = smtp.connections();
    const mail = (n: number) => ({
      id: `pool-${n}`,
      accountId: 1,
      to: `reader${n}@example.com`,
      subject: `Mail ${n}`,
      text: `Body ${n}`,
      kind: "test",
    });
    await Promise.all(Array.from({ length: 30 }, (_, n) => transport.send(mail(n))));
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(
      Array.from({ length: 30 }, (_, n) => `reader${n}@example.com`).sort(),
    );
    expect(smtp.connections() - opened).toBeGreaterThan(0);
    expect(smtp.connections() - opened).toBeLessThanOrEqual(5);
    expect(smtp.authFailures).toEqual([]);
    transport.close?.();
    await transport.send(mail(30));
    expect(smtp.received).toHaveLength(31);
    transport.close?.();
  });

  it("hands a mail over without waiting on the server's delayed acknowledgement (Nagle off)", async () => {
    // With Nagle on, the message's small writes after DATA wait for the server's delayed ACK: at
    // least 40 ms a mail on Linux, every mail. Mails one after another over one pooled connection.
    const transport = transportFor(smtpUrl);
    const text = "A paragraph of the newsletter.\n".repeat(40);
    await transport.send({ id: "warm", accountId: 1, to: "warm@example.com", subject: "Warm", text, kind: "test" });
    const times: number[] = [];
    for (let n = 0; n < 15; n++) {
      const started = performance.now();
      await transport.send({ id: `ack-${n}`, accountId: 1, to: `r${n}@example.com`, subject: "S", text, kind: "test" });
      times.push(performance.now() - started);
    }
    transport.close?.();
    const median = times.sort((a, b) => a - b)[7]!;
    expect(median).toBeLessThan(35);
  });

  it("retries a temporary refusal (451) with backoff, then sends", async () => {
    const db = await getDb();
    const { id: accountId } = await account();
    smtp.setRcptBehaviour((_address, n) => (n < 2 ? { code: 451, message: "Greylisted, try again later" } : "accept"));
    let now = Date.parse("2026-03-01T10:00:00Z");
    const deps = testJobDeps({ mail: transportFor(smtpUrl), clock: () => new Date(now) });
    const { id } = await queueEmail(db, {
      accountId,
      to: "grey@example.com",
      subject: "S",
      text: "T",
      kind: "test",
      now: new Date(now),
    });

    await runJobsNow(db, deps);
    const first = await db.outgoingEmail.findUniqueOrThrow({ where: { id } });
    expect(first).toMatchObject({ status: "PENDING", attempts: 1 });
    expect(first.lastError).toMatch(/451.*Greylisted/);
    // Not before its backoff (10 s after the first attempt, 20 s after the second).
    expect(await runJobsNow(db, deps)).toEqual({ claimed: 0 });
    now += 10_000;
    await runJobsNow(db, deps);
    expect(await db.outgoingEmail.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "PENDING",
      attempts: 2,
    });
    now += 20_000;
    await runJobsNow(db, deps);

    expect(await db.outgoingEmail.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "SENT",
      attempts: 3,
      lastError: null,
    });
    expect(smtp.received.map((m) => m.to)).toEqual([["grey@example.com"]]);
  });

  it("fails a permanent rejection (550) at once, with the server's answer, without retrying", async () => {
    const db = await getDb();
    const { id: accountId } = await account();
    smtp.setRcptBehaviour((address) =>
      address === "nobody@example.com" ? { code: 550, message: "No such user here" } : "accept",
    );
    let now = Date.parse("2026-03-01T10:00:00Z");
    const deps = testJobDeps({ mail: transportFor(smtpUrl), clock: () => new Date(now) });
    const { id } = await queueEmail(db, {
      accountId,
      to: "nobody@example.com",
      subject: "S",
      text: "T",
      kind: "test",
      now: new Date(now),
    });

    expect(await runJobsNow(db, deps)).toEqual({ claimed: 1 });
    const mail = await db.outgoingEmail.findUniqueOrThrow({ where: { id } });
    expect(mail).toMatchObject({ status: "FAILED", attempts: 1, sentAt: null });
    expect(mail.lastError).toMatch(/550 No such user here/);
    const job = await db.job.findFirstOrThrow({ where: { name: "mail.send" } });
    expect(job).toMatchObject({ status: "FAILED", attempts: 1 });
    // Nothing is tried again, however long we wait.
    now += 3600_000;
    expect(await runJobsNow(db, deps)).toEqual({ claimed: 0 });
    expect(smtp.received).toHaveLength(0);

    // The Outbox page shows the state, the attempts, the error and the transport, and no password.
    const page = await listOutgoingEmails(db, {
      accountId,
      transport: describeMailTransport(parseEnv({ SMTP_URL: smtpUrl, MAIL_FROM: FROM })),
    });
    expect(page.transport.name).toBe("smtp");
    expect(page.items[0]).toMatchObject({ status: "FAILED", attempts: 1, lastError: mail.lastError });
    expect(JSON.stringify(page)).not.toContain("p4ss");
  });

  it("retries a refused login (the configuration, not the mail), and keeps the password out of errors and logs", async () => {
    const db = await getDb();
    const { id: accountId } = await account();
    const wrong = `smtp://mailer:${encodeURIComponent("wrong-p4ssword")}@127.0.0.1:${smtp.port}`;
    const now = Date.parse("2026-03-01T10:00:00Z");
    const { id } = await queueEmail(db, {
      accountId,
      to: "reader@example.com",
      subject: "S",
      text: "T",
      kind: "test",
      now: new Date(now),
    });
    process.env.LOG_LEVEL = "debug";
    resetEnvCache();
    const logged: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      logged.push(String(chunk));
      return true;
    });
    try {
      await runJobsNow(db, testJobDeps({ mail: transportFor(wrong), clock: () => new Date(now) }));
    } finally {
      spy.mockRestore();
      delete process.env.LOG_LEVEL;
      resetEnvCache();
    }
    expect(smtp.authFailures).toEqual(["mailer"]);
    const mail = await db.outgoingEmail.findUniqueOrThrow({ where: { id } });
    expect(mail).toMatchObject({ status: "PENDING", attempts: 1 });
    expect(mail.lastError).toMatch(/535/);
    expect(logged.join("")).toContain("job attempt failed");
    for (const text of [mail.lastError ?? "", logged.join("")]) {
      expect(text).not.toContain("wrong-p4ssword");
      expect(text).not.toContain(encodeURIComponent("wrong-p4ssword"));
    }
  });
});

describe("isPermanentSmtpFailure", () => {
  const smtpError = (fields: { code?: string; responseCode?: number; command?: string }) =>
    Object.assign(new Error("x"), fields);

  it("is true only for a 5xx to the envelope or message, or an address refused before sending", () => {
    expect(isPermanentSmtpFailure(smtpError({ code: "EENVELOPE", responseCode: 550, command: "RCPT TO" }))).toBe(true);
    expect(isPermanentSmtpFailure(smtpError({ code: "EMESSAGE", responseCode: 554, command: "DATA" }))).toBe(true);
    expect(isPermanentSmtpFailure(smtpError({ code: "EENVELOPE", command: "API" }))).toBe(true);
    expect(isPermanentSmtpFailure(smtpError({ code: "EENVELOPE", responseCode: 452, command: "RCPT TO" }))).toBe(false);
    expect(isPermanentSmtpFailure(smtpError({ code: "EAUTH", responseCode: 535, command: "AUTH PLAIN" }))).toBe(false);
    expect(isPermanentSmtpFailure(smtpError({ code: "ECONNECTION" }))).toBe(false);
    expect(isPermanentSmtpFailure(smtpError({ code: "ETIMEDOUT" }))).toBe(false);
    expect(isPermanentSmtpFailure("550 no")).toBe(false);
  });
});
