/**
 * Erasure tests' reader: one member of an account with data in every table an erasure touches
 * (identities, sessions and tokens, comments with a reply from another reader, reactions, votes,
 * reports, notifications, consents, newsletters, a live subscription with its payment and invoice,
 * gateway links, mails, webhooks' logs, import records, audit entries), written as plain rows; and
 * `tracesOf`, which reads every table of the database for text that names them.
 */
import type { Db } from "../db/client";
import { hashToken, newToken } from "../security/secret-tokens";
import type { ImageStorage } from "../storage/image-storage";
import { insertNewsletter } from "./newsletter-fixtures";
import { insertTestGroup, insertTestPlan, insertTestSubscription } from "./subscription-fixtures";

let counter = 0;

export type SeededReader = Awaited<ReturnType<typeof seedReader>>;

async function seedPeople(db: Db, accountId: number, tag: string) {
  const email = `zebulon.${tag}@example.com`;
  const name = `Zebulon Quimby${tag}`;
  const member = await db.member.create({
    data: {
      accountId,
      email,
      name,
      username: `zq${tag}`,
      firstName: "Zebulon",
      lastName: `Quimby${tag}`,
      passwordHash: "scrypt$16384$8$1$c2FsdA==$aGFzaA==",
      bio: "I read everything",
      phoneNumber: "+33 6 12 34 56 78",
      metadata: { city: "Lyon" },
      locale: "fr",
      avatarUrl: `https://cdn.example.com/${tag}.png`,
      avatarS3Key: `avatars/${tag}.png`,
    },
  });
  const other = await db.member.create({
    data: { accountId, email: `other.${tag}@example.com`, name: `Olive ${tag}`, passwordHash: "x" },
  });
  await db.memberIdentity.createMany({
    data: [
      { accountId, provider: "email", externalId: email, memberId: member.id, email },
      { accountId, provider: "google", externalId: `g-${tag}`, memberId: member.id, email: `zeb.${tag}@gmail.test` },
    ],
  });
  return { email, name, member, other };
}

async function seedEngagement(db: Db, accountId: number, memberId: number, otherId: number, tag: string) {
  const page = await db.page.create({ data: { accountId, url: `https://news.example.com/${tag}` } });
  const body = (text: string) => ({ ops: [{ insert: `${text}\n` }] });
  const comment = (authorId: number, text: string, parentCommentId: number | null = null) =>
    db.comment.create({
      data: { accountId, pageId: page.id, authorId, body: body(text), bodyDigest: `${text}-${tag}`, parentCommentId },
    });
  const answered = await comment(memberId, "A thought others answered");
  const reply = await comment(otherId, "An answer to it", answered.id);
  const lone = await comment(memberId, "A thought nobody answered");
  const othersTop = await comment(otherId, "Olive's own thought");
  const myReply = await comment(memberId, "My reply to Olive", othersTop.id);
  await db.commentReaction.create({ data: { commentId: othersTop.id, memberId, reactionId: "like" } });
  await db.pageReaction.create({ data: { pageId: page.id, memberId, reactionId: "like" } });
  await db.commentReport.create({ data: { accountId, commentId: othersTop.id, memberId, reason: "SPAM" } });
  await db.readerNotificationPrefs.create({ data: { memberId, timeZone: "Europe/Paris", updatedAt: new Date() } });
  await db.readerNotification.create({
    data: {
      accountId,
      memberId,
      kind: "REPLY",
      commentId: reply.id,
      eventKey: `reply:${reply.id}`,
      delivery: "IMMEDIATE",
      createdAt: new Date(),
    },
  });
  await db.memberConsent.create({
    data: { accountId, memberId, list: "newsletter", consentedAt: new Date(), source: "form" },
  });
  return { page, answered, reply, lone, othersTop, myReply };
}

async function seedNewsletters(db: Db, accountId: number, memberId: number, email: string, tag: string) {
  const newsletter = await insertNewsletter(db, accountId);
  await db.newsletterSubscription.create({
    data: {
      accountId,
      newsletterId: newsletter.id,
      memberId,
      status: "ACTIVE",
      consentedAt: new Date(),
      consentSource: "form",
    },
  });
  const send = await db.newsletterSend.create({
    data: {
      accountId,
      newsletterId: newsletter.id,
      kind: "story",
      dedupeKey: `d-${tag}`,
      subject: "Today",
      scheduledAt: new Date(),
    },
  });
  const delivery = await db.newsletterDelivery.create({ data: { accountId, sendId: send.id, memberId, email } });
  await db.newsletterClick.create({
    data: { deliveryId: delivery.id, url: "https://news.example.com/a", clickedAt: new Date() },
  });
  await db.emailSuppression.create({ data: { accountId, email, reason: "complaint" } });
}

/** A live manual subscription (no gateway), its captured payment and issued invoice. */
async function seedBilling(db: Db, accountId: number, memberId: number, who: { name: string; email: string }) {
  const group = await insertTestGroup(db, accountId);
  const plan = await insertTestPlan(db, group, { priceCents: 1190 });
  const sub = await insertTestSubscription(db, {
    accountId,
    memberId,
    planId: plan.id,
    notes: `Asked by ${who.email}`,
  });
  const payment = await db.payment.create({
    data: {
      accountId,
      subscriptionId: sub.id,
      paymentType: "manual",
      amountCents: 1190,
      currency: "EUR",
      status: "CAPTURED",
      details: { payer: who.email },
    },
  });
  const counter = await db.invoiceCounter.upsert({
    where: { accountId },
    create: { accountId, lastNumber: 1 },
    update: { lastNumber: { increment: 1 } },
  });
  const invoice = await db.invoice.create({
    data: {
      accountId,
      sequenceNumber: counter.lastNumber,
      paymentId: payment.id,
      subscriptionId: sub.id,
      memberId,
      currency: "EUR",
      basePriceCents: 1190,
      netCents: 1000,
      taxLines: [{ name: "VAT", rate_basis_points: 1900, amount_cents: 190, inclusive: true }],
      amountCents: 1190,
      paymentType: "manual",
      planName: plan.title,
      subscriberName: who.name,
      subscriberEmail: who.email,
      sellerName: "The Gazette",
    },
  });
  await db.subscriptionCancellation.create({
    data: {
      accountId,
      subscriptionId: sub.id,
      memberId,
      reason: "other",
      comment: `I am ${who.name}`,
      outcome: "offer_accepted",
    },
  });
  return { sub, payment, invoice };
}

async function seedLogs(
  db: Db,
  accountId: number,
  who: { memberId: number; name: string; email: string; tag: string },
) {
  const { memberId, name, email, tag } = who;
  await db.memberGatewayCustomer.create({
    data: { accountId, memberId, provider: "stripe", environment: "sandbox", externalCustomerId: `cus_${tag}` },
  });
  await db.subscriberProfile.create({ data: { memberId, metadata: { phone_number: "+33 6 12 34 56 78" } } });
  await db.memberSession.create({
    data: { memberId, tokenHash: hashToken(newToken()), expiresAt: new Date(Date.now() + 86_400_000) },
  });
  await db.passwordResetToken.create({ data: { memberId, tokenHash: hashToken(newToken()), expiresAt: new Date() } });
  await db.emailVerificationToken.create({
    data: { memberId, email, tokenHash: hashToken(newToken()), expiresAt: new Date() },
  });
  await db.memberOtp.create({ data: { accountId, email, codeHash: "x", expiresAt: new Date() } });
  await db.rateLimitBucket.create({
    data: { key: `member.forgot:${accountId}:${email}`, count: 1, resetAt: new Date() },
  });
  await db.outgoingEmail.createMany({
    data: [
      { accountId, to: email, subject: "Welcome", text: `Hello ${name}`, kind: "member.welcome" },
      {
        accountId,
        to: "olive@example.com",
        subject: `${name} replied`,
        text: `${name} replied to you`,
        kind: "notify",
      },
    ],
  });
  const endpoint = await db.webhookEndpoint.create({
    data: { accountId, kind: "CONTENT", url: "https://hooks.example.com/x", events: ["member-signup"] },
  });
  const event = await db.webhookEvent.create({
    data: {
      accountId,
      kind: "CONTENT",
      name: "member-signup",
      payload: { member: { id: memberId, name, email } },
      occurredAt: new Date(),
    },
  });
  const delivery = await db.webhookDelivery.create({ data: { eventId: event.id, endpointId: endpoint.id } });
  await db.webhookAttempt.create({
    data: {
      deliveryId: delivery.id,
      number: 1,
      startedAt: new Date(),
      durationMs: 5,
      succeeded: true,
      responseExcerpt: `ok ${email}`,
    },
  });
  await db.gatewayEvent.create({
    data: {
      accountId,
      provider: "stripe",
      externalEventId: `evt_${tag}`,
      eventType: "customer.created",
      payload: { email },
    },
  });
  await db.importRecord.create({
    data: {
      accountId,
      source: "disqus",
      kind: "member",
      sourceId: `email:${email}`,
      targetId: String(memberId),
      created: true,
    },
  });
  await db.auditLog.create({
    data: {
      accountId,
      action: "subscriber.update",
      targetType: "member",
      targetId: String(memberId),
      metadata: { email, name },
    },
  });
  const client = await db.oAuthClient.create({
    data: {
      accountId,
      clientId: `mh_oc_${tag}`,
      secretHash: "x",
      name: "App",
      redirectUris: ["https://app.example.com/cb"],
    },
  });
  await db.oAuthAccessToken.create({
    data: { tokenHash: hashToken(newToken()), clientId: client.id, memberId, expiresAt: new Date() },
  });
}

/** The reader, another reader who answered them, and everything the reader left. */
export async function seedReader(db: Db, accountId: number) {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  const { email, name, member, other } = await seedPeople(db, accountId, tag);
  const comments = await seedEngagement(db, accountId, member.id, other.id, tag);
  await seedNewsletters(db, accountId, member.id, email, tag);
  const billing = await seedBilling(db, accountId, member.id, { name, email });
  await seedLogs(db, accountId, { memberId: member.id, name, email, tag });
  return { tag, email, name, member, other, comments, billing, needles: [email, name, `zeb.${tag}@gmail.test`] };
}

/**
 * Every table's rows whose text contains one of `needles` (case-insensitive), as "table: n".
 * The invoice's billing name as issued is kept by the rule (docs/privacy.md) and is not looked at.
 */
export async function tracesOf(db: Db, needles: readonly string[]): Promise<string[]> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'
      ORDER BY table_name`,
  );
  const found: string[] = [];
  const lowered = needles.map((n) => n.toLowerCase());
  for (const { name } of tables) {
    const row = name === "invoices" ? `(to_jsonb(x) - 'subscriber_name')` : `to_jsonb(x)`;
    const hits = lowered.map((_, i) => `strpos(lower(${row}::text), $${i + 1}) > 0`).join(" OR ");
    const [hit] = await db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "${name}" x WHERE ${hits}`,
      ...lowered,
    );
    if (hit?.n) found.push(`${name}: ${hit.n}`);
  }
  return found;
}

/** A storage that keeps nothing and records the keys it was asked to delete. */
export function recordingStorage(): ImageStorage & { deleted: string[] } {
  const deleted: string[] = [];
  return {
    name: "disk",
    deleted,
    async put() {},
    async get() {
      return null;
    },
    async delete(key) {
      deleted.push(key);
    },
  };
}
