/**
 * Crash test for the subscription lifecycle (server/subscriptions/recurring/lifecycle.ts): the server is
 * killed with SIGKILL in the middle of a renewal step (the period is charged, and the job waits to
 * write the payment: this test holds the payments table), and after the restart the step
 * completes exactly once: one payment, one subscription.renewed event, the end moved one period.
 */
import { expect, test } from "@playwright/test";
import pg from "pg";

import { addDuration } from "../../server/subscriptions/subscribers/subscription-state";
import { DATABASE_URL, specSchema, startBuiltServer, waitFor, type BuiltServer } from "./built-server";

const SCHEMA = `mh_lifecyclecrash_${process.pid}`;
const PORT = Number(process.env.E2E_PORT ?? 3210) + 30;

test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

const database = specSchema(SCHEMA);

test("a renewal killed mid-step completes exactly once after the restart", async () => {
  const db = database().prisma;
  const account = await db.account.create({
    data: { slug: "lifecyclecrash", name: "Lifecycle crash", jwtSecret: "x".repeat(32) },
  });
  const member = await db.member.create({
    data: { accountId: account.id, name: "Reader", email: "reader@example.com", passwordHash: "" },
  });
  // A sponsored recurring subscription whose period ended a minute ago (sponsored: renewed without
  // a gateway), and its lifecycle step due now, as the lifecycle queues it.
  const due = new Date(Date.now() - 60_000);
  const start = new Date(due.getTime() - 30 * 86_400_000);
  const subscription = await db.subscription.create({
    data: {
      accountId: account.id,
      memberId: member.id,
      subscriptionType: "STANDARD",
      status: "ACTIVE",
      startTimestamp: start,
      endTimestamp: due,
      nextPaymentDueDate: due,
      // Sent for this period already: the step is the charge alone.
      renewalReminderSentAt: new Date(due.getTime() - 7 * 86_400_000),
      planName: "Monthly",
      durationLength: 1,
      durationUnit: "MONTHS",
      planAmountCents: 0,
      planAmountCurrency: "USD",
      recurring: true,
      paymentType: "sponsored",
      paymentAmountCents: 0,
      paymentAmountCurrency: "USD",
    },
  });
  await db.job.create({
    data: {
      name: "subscription.lifecycle",
      key: `subscription.lifecycle:${subscription.id}@${due.toISOString()}`,
      accountId: account.id,
      payload: { subscriptionId: subscription.id },
      runAt: due,
    },
  });
  // Hold the payments table: the step locks the subscription, charges, then waits here to write the payment.
  const blocker = new pg.Client({ connectionString: DATABASE_URL });
  await blocker.connect();
  await blocker.query(`SET search_path TO "${SCHEMA}"`);
  await blocker.query("BEGIN");
  await blocker.query("LOCK TABLE payments IN SHARE MODE");

  let server: BuiltServer = await startBuiltServer({ port: PORT, schema: SCHEMA });
  try {
    await waitFor(
      async () => {
        const job = await db.job.findFirst({ where: { name: "subscription.lifecycle", lockedBy: { not: null } } });
        if (!job) return undefined;
        // A lock on this schema's payments table asked for and not granted: the step's write of the
        // payment. (Not pg_stat_activity's query text: the wait begins while the INSERT is parsed,
        // before the backend reports it, so the text there is still the statement before.)
        const waiting = await blocker.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks l
             JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace s ON s.oid = c.relnamespace
            WHERE NOT l.granted AND c.relname = 'payments' AND s.nspname = $1`,
          [SCHEMA],
        );
        return waiting.rows[0]!.n > 0 ? job : undefined;
      },
      30_000,
      "the renewal to be held up mid-step",
    );
    await server.kill();
    await blocker.query("ROLLBACK");

    // Nothing of the killed step committed.
    const untouched = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(untouched.endTimestamp?.toISOString()).toBe(due.toISOString());
    expect(await db.payment.count({ where: { subscriptionId: subscription.id } })).toBe(0);
    expect(await db.webhookEvent.count({ where: { name: "subscription.renewed" } })).toBe(0);
    expect(await db.job.findFirstOrThrow({ where: { name: "subscription.lifecycle" } })).toMatchObject({
      status: "PENDING",
      attempts: 1,
    });

    // A new process takes the step up once the dead worker's lease (30 s) has run out.
    server = await startBuiltServer({ port: PORT, schema: SCHEMA });
    const done = await waitFor(
      async () =>
        (await db.job.findFirst({
          where: {
            name: "subscription.lifecycle",
            status: "SUCCEEDED",
            payload: { equals: { subscriptionId: subscription.id } },
          },
        })) ?? undefined,
      90_000,
      "the renewal step to succeed",
    );
    expect(done.attempts).toBe(2);
    const renewed = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(renewed.status).toBe("ACTIVE");
    expect(renewed.endTimestamp?.toISOString()).toBe(addDuration(due, 1, "MONTHS")!.toISOString());
    expect(renewed.nextPaymentDueDate?.toISOString()).toBe(renewed.endTimestamp?.toISOString());
    expect(await db.payment.count({ where: { subscriptionId: subscription.id } })).toBe(1);
    expect(await db.webhookEvent.count({ where: { name: "subscription.renewed" } })).toBe(1);
    // And its next step (the next period's reminder) is queued once.
    expect(
      await db.job.count({ where: { name: "subscription.lifecycle", status: "PENDING", accountId: account.id } }),
    ).toBe(1);
  } finally {
    await blocker.end().catch(() => undefined);
    await server.kill();
  }
});
