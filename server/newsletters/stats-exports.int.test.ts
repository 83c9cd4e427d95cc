/**
 * The newsletter stats as the dashboard reads them, on PGlite and PostgreSQL: the tRPC queries
 * and the two CSV downloads (a newsletter's sends, a send's mails), for editors and revenue staff
 * of the account only (a moderator 403, another account's 404), a half range a 400.
 */
import { describe, expect, it, vi } from "vitest";

import { GET as sendsCsv } from "@/app/api/admin/newsletters/[id]/sends.csv/route";
import { GET as deliveriesCsv } from "@/app/api/admin/newsletters/[id]/sends/[sendId]/deliveries.csv/route";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { createNewsletterFixture } from "@/server/testing/newsletters";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const SENT = new Date("2026-11-20T07:00:00Z");

async function setup() {
  const db = await getDb();
  const fixture = await createNewsletterFixture(db, {
    members: 3,
    sentAt: SENT,
    outcomes: [
      { openedAt: new Date("2026-11-20T08:00:00Z"), clicks: [new Date("2026-11-20T08:01:00Z")] },
      { status: "BOUNCED" },
      { openedAt: new Date("2026-11-20T09:00:00Z"), unsubscribedAt: new Date("2026-11-20T09:05:00Z") },
    ],
  });
  const editor = await createTestStaff(db, { account: fixture.account.id, roles: ["EDITOR"] });
  const moderator = await createTestStaff(db, { account: fixture.account.id, roles: ["MODERATOR"] });
  const stranger = await createTestStaff(db, { roles: ["OWNER"] });
  return { db, ...fixture, editor, moderator, stranger };
}

const csvLines = async (res: Response) =>
  (await res.text())
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean);

const getSends = (id: number, query = "") =>
  sendsCsv(new Request(`http://localhost/api/admin/newsletters/${id}/sends.csv${query}`), {
    params: Promise.resolve({ id: String(id) }),
  });
const getDeliveries = (id: number, sendId: number) =>
  deliveriesCsv(new Request(`http://localhost/api/admin/newsletters/${id}/sends/${sendId}/deliveries.csv`), {
    params: Promise.resolve({ id: String(id), sendId: String(sendId) }),
  });

describe("newsletter stats in the dashboard", () => {
  it("answers a newsletter's and a send's numbers to its editors, not to moderators or other accounts", async () => {
    const { newsletter, send, editor, moderator, stranger } = await setup();
    const range = { from: "2026-11-01", to: "2026-11-30" };
    const stats = await editor.caller.newsletterStats.newsletter({ newsletterId: newsletter.id, range });
    expect(stats.sends.map((s) => [s.id, s.delivered, s.bounced, s.opened, s.clicked, s.unsubscribed])).toEqual([
      [send.id, 2, 1, 2, 1, 1],
    ]);
    expect(stats.subscribers.at(-1)).toMatchObject({ day: "2026-11-30", active: 3 });
    const one = await editor.caller.newsletterStats.send({ sendId: send.id });
    expect(one.stats).toMatchObject({ recipients: 3, delivered: 2, openRate: 1, clickRate: 0.5 });

    expect(await trpcCodeOf(moderator.caller.newsletterStats.send({ sendId: send.id }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(stranger.caller.newsletterStats.send({ sendId: send.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(stranger.caller.newsletterStats.newsletter({ newsletterId: newsletter.id, range }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await trpcCodeOf(
        editor.caller.newsletterStats.newsletter({
          newsletterId: newsletter.id,
          range: { from: "2025-01-01", to: "2026-11-30" },
        }),
      ),
    ).toBe("BAD_REQUEST");
  });

  it("downloads the sends and a send's mails as CSV, for the account's editors only", async () => {
    const { newsletter, send, members, editor, moderator, stranger } = await setup();
    session.current = editor.session;

    const sends = await getSends(newsletter.id);
    expect(sends.status).toBe(200);
    expect(sends.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = await csvLines(sends);
    expect(lines).toEqual([
      "send_id,subject,kind,status,sent_at_utc,recipients,delivered,bounced,failed,pending,opened,clicked,unsubscribed,open_rate,click_rate,subscriptions_started",
      `${send.id},Today's briefing,story,sent,2026-11-20T07:00:00.000Z,3,2,1,0,0,2,1,1,1,0.5,0`,
    ]);
    expect(await csvLines(await getSends(newsletter.id, "?from=2026-11-21&to=2026-11-30"))).toHaveLength(1);
    expect((await getSends(newsletter.id, "?from=2026-11-21")).status).toBe(400);

    const mails = await csvLines(await getDeliveries(newsletter.id, send.id));
    expect(mails[0]).toBe(
      "email,status,sent_at_utc,opened_at_utc,clicked_at_utc,clicks,bounced_at_utc,unsubscribed_at_utc,last_error",
    );
    expect(mails.slice(1)).toEqual([
      `${members[0]!.email},sent,2026-11-20T07:00:00.000Z,2026-11-20T08:00:00.000Z,2026-11-20T08:01:00.000Z,1,,,`,
      `${members[1]!.email},bounced,2026-11-20T07:00:00.000Z,,,0,2026-11-20T07:00:00.000Z,,`,
      `${members[2]!.email},sent,2026-11-20T07:00:00.000Z,2026-11-20T09:00:00.000Z,,0,,2026-11-20T09:05:00.000Z,`,
    ]);
    expect((await getDeliveries(newsletter.id + 1000, send.id)).status).toBe(404);

    session.current = moderator.session;
    expect((await getSends(newsletter.id)).status).toBe(403);
    expect((await getDeliveries(newsletter.id, send.id)).status).toBe(403);
    session.current = stranger.session;
    expect((await getSends(newsletter.id)).status).toBe(404);
    expect((await getDeliveries(newsletter.id, send.id)).status).toBe(404);
    session.current = null;
    expect((await getSends(newsletter.id)).status).toBe(401);
  });
});
