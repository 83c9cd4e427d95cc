/**
 * Readers' notifications in integration tests: a publisher with a moderator, three readers with
 * addresses, a mention in a comment's ops, the jobs run until none is due, and the notification
 * mails the outbox holds.
 */
import { staffActor } from "../auth/actor";
import { getDb } from "../db";
import type { Db } from "../db/client";
import type { JobDeps } from "../jobs/define";
import { runJobsNow, testJobDeps } from "./jobs";
import { createTestPublisher } from "./publishing-factories";
import { createTestStaff } from "./staff";

export type Reader = { id: string; name: string; email?: string };
export const ADA = { id: "reader-ada", name: "Ada", email: "ada@example.com" } satisfies Reader;
export const BO = { id: "reader-bo", name: "Bo", email: "bo@example.com" } satisfies Reader;
export const CY = { id: "reader-cy", name: "Cy", email: "cy@example.com" } satisfies Reader;

/** A publisher ("The Gazette"), its id as the routes take it, and a moderator's actor. */
export async function notificationsSetup() {
  const db = await getDb();
  const account = await createTestPublisher(db, { name: "The Gazette" });
  const staff = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
  const moderator = staffActor({ id: staff.user.id, accountId: account.id, roles: ["MODERATOR"] });
  return { db, account, id: String(account.id), moderator };
}

/** A comment op mentioning the member `memberId` by `name`. */
export const mention = (memberId: number, name: string) => ({
  attributes: { mention: { name, slug: name.toLowerCase(), id: String(memberId) }, link: name.toLowerCase() },
  insert: { mentions: true },
});

/** Run jobs until none is due (a notification job queues its mail's job). */
export async function drainJobs(db: Db, deps: JobDeps = testJobDeps(), workerId = "test"): Promise<void> {
  for (let pass = 0; pass < 10; pass++) {
    const { claimed } = await runJobsNow(db, deps, workerId);
    if (claimed === 0) return;
  }
  throw new Error("jobs kept coming");
}

/** The account's notification mails in the outbox, oldest first. */
export function notificationMails(db: Db, accountId: number) {
  return db.outgoingEmail.findMany({
    where: { accountId, kind: { startsWith: "engagement.notification." } },
    orderBy: [{ createdAt: "asc" }, { to: "asc" }],
  });
}

/** Each notification mail as "<to> <kind>" (kind without its "engagement.notification." prefix). */
export const notificationSummary = async (db: Db, accountId: number) =>
  (await notificationMails(db, accountId)).map((m) => `${m.to} ${m.kind.replace("engagement.notification.", "")}`);
