/**
 * Where mail goes. The outbox (./outbox.ts) hands each message to a transport from its
 * "mail.send" job; a transport that throws makes the job retry with backoff.
 *
 * The only transport today writes each mail to the application log ("log"): in development the
 * Outbox page of the dashboard is where reset links are read. An SMTP transport slots in here.
 */
import { log } from "../log";

export type OutgoingMail = { id: string; accountId: number; to: string; subject: string; text: string; kind: string };

export type MailTransport = {
  /** Shown on the Outbox page ("log", "smtp"). */
  name: string;
  send(mail: OutgoingMail): Promise<void>;
};

/** Mail written to the log, body included (bodies carry reset links, which is the point in development). */
export const logTransport: MailTransport = {
  name: "log",
  async send(mail) {
    log.info("mail written to the log (no mail transport configured)", {
      id: mail.id,
      accountId: mail.accountId,
      kind: mail.kind,
      to: mail.to,
      subject: mail.subject,
      body: mail.text,
    });
  },
};
