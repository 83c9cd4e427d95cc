/**
 * What the hostile-input tests of the newsletter routes share: a fixture of two publishers (a
 * newsletter with a send to two readers, a pending subscription, a member session; another
 * account's newsletter, reader and send) and a token signer for it; the check that an answer is a
 * refusal of the right status in the JSON error shape without internals; a snapshot of the
 * newsletter tables that a refusal must leave as they were; and the rate limits and endless bodies
 * that probes of many calls need. Test support: imported by tests only.
 */
import { expect } from "vitest";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { createMemberSession } from "../members/sessions";
import { signNewsletterToken, type TNewsletterTokenPurpose } from "../newsletters/tokens";
import { insertSubscribedMembers, insertTestNewsletter, insertTestSend, testNewsletterKey } from "./newsletters";
import { createTestPublisher } from "./publishing-factories";

export type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
type ErrorJson = { error: { code: string; message: string; details?: { field: string; issue: string }[] } };

const CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE",
};

/** What an answer must never show: a stack frame, a file path, the ORM or the database talking. */
const LEAK = /\bat \S+ \(|\.ts:\d+|node_modules|\/work\/|prisma|invalid input syntax|\bSQL\b|TypeError|RangeError/i;

/** `res` is the refusal `status` in the JSON error shape, without internals. */
export async function expectRefused(res: Response, status: number, what = ""): Promise<ErrorJson> {
  const text = await res.text();
  expect(res.status, `${what}: ${text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get("content-type"), what).toMatch(/^application\/json/);
  const body = JSON.parse(text) as ErrorJson;
  expect(body.error.code, what).toBe(CODES[status]);
  expect(typeof body.error.message, what).toBe("string");
  expect(text, what).not.toMatch(LEAK);
  return body;
}

/** Every row of the newsletter tables (and the members and mails they make), as comparable text. */
export async function snapshot(db: Db): Promise<string> {
  const tables = {
    newsletters: await db.newsletter.findMany({ orderBy: { id: "asc" } }),
    subscriptions: await db.newsletterSubscription.findMany({ orderBy: { id: "asc" } }),
    suppressions: await db.emailSuppression.findMany({ orderBy: [{ accountId: "asc" }, { email: "asc" }] }),
    sends: await db.newsletterSend.findMany({ orderBy: { id: "asc" } }),
    deliveries: await db.newsletterDelivery.findMany({ orderBy: { id: "asc" } }),
    clicks: await db.newsletterClick.findMany({ orderBy: { id: "asc" } }),
    members: await db.member.findMany({ orderBy: { id: "asc" } }),
    mails: await db.outgoingEmail.findMany({ orderBy: { createdAt: "asc" }, select: { id: true } }),
  };
  return JSON.stringify(tables, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
}

/**
 * The routes' rate limits count every call by IP, and in tests every caller is the one untrusted
 * IP: a probe with dozens of calls starts each from an empty count (the memory store of
 * RATE_LIMIT_STORE=memory, as setup.integration.ts does before each test).
 */
export function forgetRateLimits() {
  (globalThis as { mastheadRateLimitStore?: unknown }).mastheadRateLimitStore = undefined;
}

/** A body of 1 kB chunks without end (well, a megabyte), counting how many were read. */
export function endlessStream() {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new TextEncoder().encode(`{"a":"${"x".repeat(1000)}",`));
      if (pulled > 1000) controller.close();
    },
  });
  return Object.assign(stream, { pulled: () => pulled });
}

/**
 * The Gazette (its daily sent to two readers, ada and bo; bo pending on its weekly; a member
 * session for ada) and The Other Paper (its own daily, reader zed and send). `sign` makes a link
 * token for a purpose and row, by default of the Gazette with the routes' key.
 */
export async function hostileSetup() {
  const db = await getDb();
  const key = testNewsletterKey();
  const account = await createTestPublisher(db, { name: "The Gazette" });
  const other = await createTestPublisher(db, { domain: null, name: "The Other Paper" });
  const daily = await insertTestNewsletter(db, account.id, { slug: "daily", name: "Daily Briefing" });
  const weekly = await insertTestNewsletter(db, account.id, { slug: "weekly", name: "Weekly" });
  const [ada, bo] = await insertSubscribedMembers(db, daily, 2, { emailPrefix: "reader" });
  const { send, deliveries } = await insertTestSend(db, daily, [ada!, bo!]);
  const adaDaily = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: ada!.id } });
  const boDaily = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: bo!.id } });
  const boWeekly = await db.newsletterSubscription.create({
    data: {
      accountId: account.id,
      newsletterId: weekly.id,
      memberId: bo!.id,
      status: "PENDING",
      consentedAt: new Date(),
      consentSource: "widget",
    },
  });
  const otherDaily = await insertTestNewsletter(db, other.id, { slug: "daily" });
  const [zed] = await insertSubscribedMembers(db, otherDaily, 1, { emailPrefix: "zed" });
  const otherSend = await insertTestSend(db, otherDaily, [zed!]);
  const zedDaily = await db.newsletterSubscription.findFirstOrThrow({ where: { memberId: zed!.id } });
  const sign = (purpose: TNewsletterTokenPurpose, id: number | bigint, accountId = account.id, k = key) =>
    signNewsletterToken(k, { accountId, purpose, id });
  const { token: memberSession } = await createMemberSession(db, { memberId: ada!.id, now: new Date(), days: 1 });
  return {
    db,
    key,
    account,
    other,
    daily,
    weekly,
    ada: ada!,
    bo: bo!,
    send,
    delivery: deliveries[0]!,
    adaDaily,
    boDaily,
    boWeekly,
    otherDaily,
    zedDaily,
    otherSend: otherSend.send,
    otherDelivery: otherSend.deliveries[0]!,
    sign,
    memberSession,
  };
}

/** The path of a link route (confirm, unsubscribe, open, click) with `token` in it. */
export const tokenPath = (route: string, token: string) => `/api/newsletters/${route}/${encodeURIComponent(token)}`;

export type HostileFixture = Awaited<ReturnType<typeof hostileSetup>>;
