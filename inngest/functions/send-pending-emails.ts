/**
 * Every minute: send mail still PENDING in the outbox (server/mail/outbox.ts). Mail is normally
 * sent right after the commit that queues it; this is the safety net when that hand-off was lost.
 */
import { getDb } from "../../server/db";
import { logMail, sendPendingEmails } from "../../server/mail/outbox";
import { inngest } from "../client";

export const sendPendingEmailsFunction = inngest.createFunction(
  { id: "send-pending-emails", triggers: [{ cron: "* * * * *" }], concurrency: { limit: 1 } },
  async ({ step }) => step.run("send", async () => sendPendingEmails(await getDb(), { now: new Date(), log: logMail })),
);
