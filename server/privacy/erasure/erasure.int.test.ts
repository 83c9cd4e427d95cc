/**
 * Erasure on PGlite and PostgreSQL (docs/privacy.md "Erasure"): a full erasure leaves nothing
 * that names the reader in any table (but the invoice's billing name as issued), keeps the
 * tombstone, the invoices (which still add up) and, by the account's rule, the comments; a run
 * killed after any step or inside one resumes to the same result; two runs at once do it once; a
 * gateway that refuses stops it before anything local goes; the same e-mail and identity sign up
 * again as a new person.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { staffActor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { authorWire } from "@/server/engagement/comment-wire";
import { commentAuthorsOf, findOrCreateMemberByIdentity } from "@/server/members/identities";
import { logInMember, signUpMember } from "@/server/members/members";
import { forgetPublisherCache, resolvePublisher } from "@/server/publishing/publisher";
import { PaymentAdapterError } from "@/server/subscriptions/payments/adapter";
import { recordingStorage, seedReader, tracesOf, type SeededReader } from "@/server/testing/erasure";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { registerTestAdapter } from "@/server/testing/scripted-gateway";
import { createTestStaff } from "@/server/testing/staff";

import { requestErasure } from "./requests";
import type { CommentsRule } from "./rules";
import { runErasure } from "./run";
import { ERASURE_STEPS } from "./steps";

beforeEach(() => forgetPublisherCache());

async function setup() {
  const db = await getDb();
  const account = await createTestPublisher(db);
  const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });
  return { db, account, owner, actor: staffActor({ ...owner.user, accountId: account.id, roles: ["OWNER"] }) };
}

async function ask(db: Db, accountId: number, reader: SeededReader, actor: ReturnType<typeof staffActor>) {
  return requestErasure(db, { accountId, memberId: reader.member.id, actor, now: new Date() });
}

const run = (
  db: Db,
  requestId: string,
  commentsRule: CommentsRule,
  extra: Partial<Parameters<typeof runErasure>[1]> = {},
) => runErasure(db, { requestId, commentsRule, now: new Date(), storage: recordingStorage(), ...extra });

const invoiceTotals = async (db: Db, accountId: number) => {
  const rows = await db.invoice.findMany({ where: { accountId }, orderBy: { sequenceNumber: "asc" } });
  return {
    numbers: rows.map((r) => r.sequenceNumber),
    amount: rows.reduce((s, r) => s + r.amountCents, 0),
    net: rows.reduce((s, r) => s + r.netCents, 0),
    tax: rows.reduce(
      (s, r) => s + (r.taxLines as { amount_cents: number }[]).reduce((t, l) => t + l.amount_cents, 0),
      0,
    ),
  };
};

/** What an erasure leaves of the reader, without the request's own id (for comparing two runs). */
async function leftOf(db: Db, reader: SeededReader) {
  const id = reader.member.id;
  const member = await db.member.findUniqueOrThrow({ where: { id }, omit: { passwordHash: false } });
  const comments = await db.comment.findMany({ where: { authorId: id }, orderBy: { id: "asc" } });
  const request = await db.erasureRequest.findUniqueOrThrow({ where: { memberId: id } });
  return {
    member: { ...member, email: member.email.replace(request.id, "<id>"), id: 0, createdAt: 0, updatedAt: 0 },
    comments: comments.map((c) => ({ body: c.body, deleted: c.deletedAt !== null })),
    replyKept: (await db.comment.count({ where: { id: reader.comments.reply.id } })) === 1,
    request: { state: request.state, stepsDone: request.stepsDone, lastError: request.lastError },
    invoices: (await db.invoice.findMany({ where: { memberId: id } })).map((i) => [i.amountCents, i.subscriberEmail]),
    subscriptions: (await db.subscription.findMany({ where: { memberId: id } })).map((s) => [s.status, s.notes]),
    counts: await Promise.all([
      db.memberIdentity.count({ where: { memberId: id } }),
      db.memberSession.count({ where: { memberId: id } }),
      db.commentReaction.count({ where: { memberId: id } }),
      db.newsletterDelivery.count({ where: { memberId: id } }),
      db.outgoingEmail.count({ where: { to: reader.email } }),
      db.auditLog.count({ where: { targetId: String(id), action: "privacy.erasure_done" } }),
      db.auditLog.count({ where: { targetId: String(reader.billing.sub.id), action: "subscription.cancel" } }),
    ]),
  };
}

describe("a full erasure", () => {
  it("leaves nothing that names the reader, keeps the tombstone, its comments (keep) and the invoices, which still add up", async () => {
    const { db, account, owner } = await setup();
    const reader = await seedReader(db, account.id);
    const before = await invoiceTotals(db, account.id);
    expect((await tracesOf(db, reader.needles)).length).toBeGreaterThan(10);

    const asked = await owner.caller.erasure.erase({
      memberId: reader.member.id,
      confirmEmail: ` ${reader.email.toUpperCase()} `,
    });
    expect(asked.state).toBe("pending");
    await runJobsNow(db, testJobDeps());

    expect(await owner.caller.erasure.status({ memberId: reader.member.id })).toMatchObject({
      state: "done",
      last_error: null,
    });
    expect(await tracesOf(db, reader.needles)).toEqual([]);
    const member = await db.member.findUniqueOrThrow({ where: { id: reader.member.id } });
    expect(member).toMatchObject({
      name: "",
      source: "erased",
      username: null,
      phoneNumber: null,
      locale: null,
      avatarS3Key: null,
    });
    expect(member.email).toMatch(/^erased-[0-9a-f-]+@erased\.invalid$/);
    // Comments kept under "keep", by the tombstone; the invoice kept without the e-mail.
    expect(await db.comment.count({ where: { authorId: reader.member.id, deletedAt: null } })).toBe(3);
    const authors = await commentAuthorsOf(db, [reader.member.id]);
    expect(authorWire(authors.get(reader.member.id)!.author)).toMatchObject({ name: "", avatar: null, erased: true });
    expect(await db.invoice.findUniqueOrThrow({ where: { id: reader.billing.invoice.id } })).toMatchObject({
      subscriberEmail: null,
      subscriberName: reader.name,
      amountCents: 1190,
      sequenceNumber: reader.billing.invoice.sequenceNumber,
    });
    expect(await invoiceTotals(db, account.id)).toEqual(before);
    expect(await db.subscription.findUniqueOrThrow({ where: { id: reader.billing.sub.id } })).toMatchObject({
      status: "CANCELLED",
    });
    // Audited by the member's id only; the other reader untouched.
    const audits = await db.auditLog.findMany({
      where: { targetId: String(reader.member.id), action: { startsWith: "privacy." } },
    });
    expect(audits.map((a) => a.action).sort()).toEqual(["privacy.erasure_done", "privacy.erasure_request"]);
    expect(JSON.stringify(audits)).not.toContain(reader.email);
    expect(await db.member.findUniqueOrThrow({ where: { id: reader.other.id } })).toMatchObject({
      name: reader.other.name,
    });
  });

  it("deletes the avatar file; the same e-mail and the same social identity sign up again as a new person", async () => {
    const { db, account, actor } = await setup();
    const reader = await seedReader(db, account.id);
    const storage = recordingStorage();
    const { id } = await ask(db, account.id, reader, actor);
    await run(db, id, "keep", { storage });
    expect(storage.deleted).toEqual([`avatars/${reader.tag}.png`]);

    const publisher = await resolvePublisher(db, { host: "localhost" });
    await expect(
      logInMember(db, {
        publisher,
        input: { email: reader.email, password: "anything at all" },
        ip: "10.0.0.1",
        now: new Date(),
      }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const again = await signUpMember(db, {
      publisher,
      input: {
        name: "Zeb Again",
        username: `zeb2${reader.tag}`,
        email: reader.email,
        password: "correct horse battery",
        "dont-login": true,
      },
      now: new Date(),
    });
    expect(again.member.id).not.toBe(reader.member.id);
    const social = await findOrCreateMemberByIdentity(db, {
      key: { accountId: account.id, provider: "google", externalId: `g-${reader.tag}` },
      now: new Date(),
      create: { name: "Zeb Social", source: "google", email: `zeb.social.${reader.tag}@example.com` },
    });
    expect(social.created).toBe(true);
    expect(social.member.id).not.toBe(reader.member.id);
  });

  it("under 'remove': the answered comment stays as a placeholder holding nothing, the others go, the reply keeps its thread", async () => {
    const { db, account, actor } = await setup();
    const reader = await seedReader(db, account.id);
    const { id } = await ask(db, account.id, reader, actor);
    await run(db, id, "remove");
    const mine = await db.comment.findMany({ where: { authorId: reader.member.id } });
    expect(mine.map((c) => c.id)).toEqual([reader.comments.answered.id]);
    expect(mine[0]).toMatchObject({ body: { ops: [] } });
    expect(mine[0]!.deletedAt).not.toBeNull();
    expect(await db.comment.findUniqueOrThrow({ where: { id: reader.comments.reply.id } })).toMatchObject({
      parentCommentId: reader.comments.answered.id,
    });
    expect(await db.comment.count({ where: { id: reader.comments.othersTop.id } })).toBe(1);
    expect(await tracesOf(db, reader.needles)).toEqual([]);
  });
});

describe("killed mid-way", () => {
  it("resumes after any step, or after a failure inside one, to the result of an uninterrupted run", async () => {
    const { db, account, actor } = await setup();
    const whole = await seedReader(db, account.id);
    await run(db, (await ask(db, account.id, whole, actor)).id, "remove");
    const expected = await leftOf(db, whole);

    const names = ERASURE_STEPS.map((s) => s.name);
    for (const [k, name] of names.entries()) {
      const reader = await seedReader(db, account.id);
      const { id } = await ask(db, account.id, reader, actor);
      const killed = new Error(`killed after ${name}`);
      await expect(
        run(db, id, "remove", {
          afterStep: (n) => {
            if (n === name) throw killed;
          },
        }),
      ).rejects.toBe(killed);
      expect((await db.erasureRequest.findUniqueOrThrow({ where: { id } })).stepsDone).toEqual(names.slice(0, k + 1));
      // Inside the next step: its transaction rolls back, nothing of it is recorded.
      const next = ERASURE_STEPS[k + 1];
      if (next?.mode === "transaction") {
        const failing = ERASURE_STEPS.map((s) =>
          s === next
            ? {
                ...next,
                run: async (tx: Parameters<typeof next.run>[0], subj: Parameters<typeof next.run>[1]) => {
                  await next.run(tx, subj);
                  throw new Error("died inside");
                },
              }
            : s,
        );
        await expect(run(db, id, "remove", { steps: failing })).rejects.toThrow("died inside");
        const after = await db.erasureRequest.findUniqueOrThrow({ where: { id } });
        expect(after.stepsDone).toEqual(names.slice(0, k + 1));
        expect(after.lastError).toBe(`${next.name}: died inside`);
      }
      await run(db, id, "remove");
      expect(await leftOf(db, reader)).toEqual({ ...expected, replyKept: true });
      expect(await tracesOf(db, reader.needles)).toEqual([]);
    }
  }, 240_000);

  it("two runs at once do every step once", async () => {
    const { db, account, actor } = await setup();
    const reader = await seedReader(db, account.id);
    const [a, b] = await Promise.all([ask(db, account.id, reader, actor), ask(db, account.id, reader, actor)]);
    expect(a.id).toBe(b.id);
    expect(await db.job.count({ where: { name: "privacy.erase" } })).toBe(1);
    await Promise.all([run(db, a.id, "keep"), run(db, a.id, "keep")]);
    const left = await leftOf(db, reader);
    expect(left.request.stepsDone).toEqual(ERASURE_STEPS.map((s) => s.name));
    expect(left.counts.slice(-2)).toEqual([1, 1]);
    expect(
      await db.auditLog.count({ where: { targetId: String(reader.member.id), action: "privacy.erasure_request" } }),
    ).toBe(1);
  });
});

describe("the gateway first", () => {
  const calls: string[] = [];
  let refuse: string | null = null;
  registerTestAdapter("erasure_test_recurring", {
    subscriptionControls: {
      async cancelAtPeriodEnd() {},
      async cancelNow(_creds, change) {
        if (refuse) throw new PaymentAdapterError(refuse, "declined");
        calls.push(`cancel-now ${change.gatewayReference}`);
      },
      async pauseCollection() {},
      async resumeCollection() {},
    },
  });

  it("stops a live gateway subscription first; a refusal stops the erasure before anything local is removed", async () => {
    const { db, account, actor } = await setup();
    const reader = await seedReader(db, account.id);
    await db.subscription.update({
      where: { id: reader.billing.sub.id },
      data: { paymentType: "erasure_test_recurring", recurring: true, gatewaySubscriptionId: `sub_${reader.tag}` },
    });
    const { id } = await ask(db, account.id, reader, actor);
    refuse = "the subscription is locked by a dispute";
    await expect(run(db, id, "keep")).rejects.toThrow(/refused the change.*dispute/);
    const stopped = await db.erasureRequest.findUniqueOrThrow({ where: { id } });
    expect(stopped).toMatchObject({ state: "pending", stepsDone: [] });
    expect(stopped.lastError).toMatch(/^gateway: .*dispute/);
    expect(await db.memberSession.count({ where: { memberId: reader.member.id } })).toBe(1);
    expect((await db.subscription.findUniqueOrThrow({ where: { id: reader.billing.sub.id } })).status).toBe("ACTIVE");

    refuse = null;
    await run(db, id, "keep");
    expect(calls).toEqual([`cancel-now sub_${reader.tag}`]);
    expect(await db.subscription.findUniqueOrThrow({ where: { id: reader.billing.sub.id } })).toMatchObject({
      status: "CANCELLED",
      gatewayState: "ended",
    });
    expect(await tracesOf(db, reader.needles)).toEqual([]);
  });
});
