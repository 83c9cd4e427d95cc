/**
 * The reader's own deletion through the routes, and nobody erasing another reader: a signed-in
 * reader asks (a mail with a link to /member/delete-account/confirm), confirms with the button's
 * POST (never the GET), is signed out and erased by the job; another reader's token, a token of
 * another account's reader, an expired or used token, staff of another account, a non-owner and a
 * mistyped e-mail are all refused, and nothing changes.
 */
import { beforeEach, describe, expect, it } from "vitest";

import { POST as CONFIRM, GET as CONFIRM_GET } from "@/app/api/member/delete-account/confirm/route";
import { POST as ASK } from "@/app/api/member/delete-account/route";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { json, post, setCookies, signupMember } from "@/server/testing/member-calls";
import { createTestPublisher } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import { ERASURE_MAIL_KIND } from "./reader-request";

beforeEach(() => forgetPublisherCache());

async function tokenMailedTo(db: Db, to: string): Promise<string> {
  const mail = await db.outgoingEmail.findFirstOrThrow({
    where: { to, kind: ERASURE_MAIL_KIND },
    orderBy: { createdAt: "desc" },
  });
  const link = /https?:\/\/\S+\/member\/delete-account\/confirm\?token=([\w%-]+)/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  return decodeURIComponent(link![1]!);
}

const confirm = (token: string, headers: Record<string, string> = {}) =>
  post(CONFIRM, "/api/member/delete-account/confirm", { token }, { host: "localhost", ...headers });

describe("a reader deletes their account", () => {
  it("asks, gets the link by mail, confirms with the POST: signed out, erased by the job", async () => {
    const db = await getDb();
    await createTestPublisher(db);
    const ada = await signupMember();
    const memberId = ada.member.id as number;

    expect((await post(ASK, "/api/member/delete-account", {})).status).toBe(401);
    const asked = await post(ASK, "/api/member/delete-account", {}, { "x-qt-auth": ada.token! });
    expect(asked.status).toBe(200);
    expect(await json(asked)).toMatchObject({ sent: true });
    const token = await tokenMailedTo(db, ada.email);
    expect(await db.erasureConfirmation.findFirst({ where: { tokenHash: token } })).toBeNull(); // only its hash kept

    // The landing's GET never confirms.
    expect(
      (
        await CONFIRM_GET(new Request(`http://localhost/api/member/delete-account/confirm?token=${token}`), {
          params: Promise.resolve({}),
        })
      ).status,
    ).toBe(405);
    expect(await db.erasureRequest.count()).toBe(0);

    const done = await confirm(token, { "x-qt-auth": ada.token! });
    expect(done.status).toBe(200);
    expect(await json(done)).toMatchObject({ state: "pending" });
    expect(setCookies(done).join("\n")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await db.memberSession.count({ where: { memberId } })).toBe(0);
    expect((await confirm(token)).status).toBe(422); // used

    await runJobsNow(db, testJobDeps());
    expect(await db.erasureRequest.findUniqueOrThrow({ where: { memberId } })).toMatchObject({ state: "done" });
    expect(await db.member.findUniqueOrThrow({ where: { id: memberId } })).toMatchObject({
      source: "erased",
      name: "",
    });
    expect(await db.outgoingEmail.count({ where: { to: ada.email } })).toBe(0);
  });
});

describe("nobody erases another reader", () => {
  it("refuses another reader's token, another account's token, an expired token", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const ada = await signupMember();
    const bo = await signupMember();
    await post(ASK, "/api/member/delete-account", {}, { "x-qt-auth": ada.token! });
    const adaToken = await tokenMailedTo(db, ada.email);

    // Bo, signed in, posts Ada's token.
    const refused = await confirm(adaToken, { "x-qt-auth": bo.token! });
    expect(refused.status).toBe(403);
    expect(await db.erasureRequest.count()).toBe(0);
    expect(await db.erasureConfirmation.count({ where: { usedAt: { not: null } } })).toBe(0);

    // A reader of another account: their token is unknown on this publisher.
    const elsewhere = await createTestPublisher(db, { domain: "other.example.org" });
    const stranger = await db.member.create({
      data: { accountId: elsewhere.id, email: "stranger@example.com", name: "Stranger", passwordHash: "x" },
    });
    await db.erasureConfirmation.create({
      data: {
        accountId: elsewhere.id,
        memberId: stranger.id,
        tokenHash: (await import("@/server/security/secret-tokens")).hashToken("t".repeat(43)),
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    expect((await confirm("t".repeat(43))).status).toBe(422);

    // Expired.
    await db.erasureConfirmation.updateMany({
      where: { memberId: ada.member.id as number },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await confirm(adaToken)).status).toBe(422);
    // Malformed body.
    expect(
      (await post(CONFIRM, "/api/member/delete-account/confirm", { token: 42 }, { host: "localhost" })).status,
    ).toBe(400);
    expect(await db.erasureRequest.count()).toBe(0);
    expect(await db.member.count({ where: { accountId: account.id, source: "erased" } })).toBe(0);
  });

  it("refuses staff of another account, a non-owner and a mistyped e-mail", async () => {
    const db = await getDb();
    const account = await createTestPublisher(db);
    const ada = await signupMember();
    const memberId = ada.member.id as number;
    const outsider = await createTestStaff(db, { roles: ["OWNER"] });
    const revenue = await createTestStaff(db, { roles: ["REVENUE"], account: account.id });
    const owner = await createTestStaff(db, { roles: ["OWNER"], account: account.id });

    expect(await trpcCodeOf(outsider.caller.erasure.erase({ memberId, confirmEmail: ada.email }))).toBe("NOT_FOUND");
    expect(await outsider.caller.erasure.status({ memberId })).toBeNull();
    expect(await trpcCodeOf(revenue.caller.erasure.erase({ memberId, confirmEmail: ada.email }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(owner.caller.erasure.erase({ memberId, confirmEmail: "someone@else.com" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await trpcCodeOf(owner.caller.erasure.erase({ memberId: 0, confirmEmail: ada.email }))).toBe("BAD_REQUEST");
    expect(await db.erasureRequest.count()).toBe(0);

    expect(await owner.caller.erasure.erase({ memberId, confirmEmail: ada.email })).toMatchObject({ state: "pending" });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "privacy.erasure_request" } });
    expect(audit).toMatchObject({ actorId: owner.user.id, targetId: String(memberId), metadata: { via: "staff" } });
  });
});
