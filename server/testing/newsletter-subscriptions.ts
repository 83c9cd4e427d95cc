/**
 * What the tests of readers' newsletter subscriptions over HTTP share: a publisher with two open
 * newsletters (daily, weekly) and a maker of more; a reader with a member session and the member
 * API's calls for them; the confirm and one-click unsubscribe links called as a mail's reader
 * would; and the confirmation mails in the outbox with the confirm token in them. Test support:
 * imported by tests only.
 */
import { PUT as MEMBER_PUT } from "@/app/api/member/newsletters/[slug]/route";
import { GET as MEMBER_LIST } from "@/app/api/member/newsletters/route";
import { POST as CONFIRM } from "@/app/api/newsletters/confirm/[token]/route";
import { POST as UNSUBSCRIBE } from "@/app/api/newsletters/unsubscribe/[token]/route";

import { getDb } from "../db";
import type { Db } from "../db/client";
import { createMemberSession } from "../members/sessions";
import { call } from "./engagement";
import { createTestPublisher } from "./publishing-factories";

/** A route's JSON answer, with the error shape when it refused. */
export type Json = Record<string, unknown> & { error?: { code: string; details?: { field: string }[] } };

/** "The Gazette" with newsletters daily ("Daily Briefing") and weekly; `newsletter` makes another. */
export async function subscriptionSetup() {
  const db = await getDb();
  const account = await createTestPublisher(db, { name: "The Gazette" });
  const newsletter = async (slug: string, extra: Record<string, unknown> = {}) =>
    db.newsletter.create({
      data: {
        accountId: account.id,
        slug,
        name: slug === "daily" ? "Daily Briefing" : `News ${slug}`,
        senderName: "Gazette",
        senderEmail: "news@gazette.test",
        design: { footer: "1 Main St" },
        ...extra,
      },
    });
  const daily = await newsletter("daily");
  const weekly = await newsletter("weekly");
  return { db, account, daily, weekly, newsletter };
}

/** A link route's params. */
export const token = (t: string) => ({ token: t });

/** A mail client's one-click unsubscribe (RFC 8058): POST List-Unsubscribe=One-Click. */
export function oneClick(t: string, headers: Record<string, string> = {}) {
  return UNSUBSCRIBE(
    new Request(`http://localhost/api/newsletters/unsubscribe/${t}`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/x-www-form-urlencoded", ...headers },
      body: "List-Unsubscribe=One-Click",
    }),
    { params: Promise.resolve(token(t)) },
  );
}

/** The confirm link's POST. */
export function confirm(t: string, headers: Record<string, string> = {}) {
  return CONFIRM(
    new Request(`http://localhost/api/newsletters/confirm/${t}`, {
      method: "POST",
      headers: { host: "localhost", ...headers },
    }),
    { params: Promise.resolve(token(t)) },
  );
}

/** The account's confirmation mails, oldest first. */
export async function confirmMails(db: Db, accountId: number) {
  return db.outgoingEmail.findMany({ where: { accountId, kind: "newsletter.confirm" }, orderBy: { createdAt: "asc" } });
}

/** The token at the end of the first `/newsletters/confirm/…` link in a mail's text. */
export function confirmTokenIn(text: string): string {
  return /\/newsletters\/confirm\/([A-Za-z0-9._-]+)/.exec(text)![1]!;
}

/** A member (named Ada) at `email`, verified or not, with a session; the member API's PUT and list as them. */
export async function memberWithSession(db: Db, accountId: number, email: string, verified: boolean) {
  const member = await db.member.create({
    data: { accountId, name: "Ada", email, emailVerified: verified, passwordHash: "-" },
  });
  const { token: session } = await createMemberSession(db, { memberId: member.id, now: new Date(), days: 1 });
  const put = (slug: string, body: unknown) =>
    call(MEMBER_PUT, "PUT", `/api/member/newsletters/${slug}`, { slug }, body, { "X-QT-AUTH": session });
  const list = () => call(MEMBER_LIST, "GET", "/api/member/newsletters", {}, undefined, { "X-QT-AUTH": session });
  return { member, put, list };
}
