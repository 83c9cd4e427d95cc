/**
 * Data exports (docs/privacy.md "Data export (subject access)"), on PGlite and PostgreSQL: a
 * reader asks on the member API, the job builds once (run twice, run concurrently) and mails one
 * link; the link downloads a zip that unzip reads, holding the reader's data and no one else's;
 * wrong token, other reader, other account and an expired link are refused; staff produce the
 * same for a reader, audited, downloadable only by them; cleanup and `deleteMemberExports` remove
 * archives and rows.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { afterAll, describe, expect, it, vi } from "vitest";

import { GET as STAFF_DOWNLOAD } from "@/app/api/admin/privacy/exports/[id]/route";
import { GET as DOWNLOAD } from "@/app/api/member/privacy/exports/[id]/route";
import { POST as REQUEST, GET as STATUS } from "@/app/api/member/privacy/exports/route";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import type { Db } from "@/server/db/client";
import { withTransaction } from "@/server/db/transaction";
import { placeholderEmail } from "@/server/members/identities";
import { createMemberSession } from "@/server/members/sessions";
import { call } from "@/server/testing/engagement";
import { recordingTransport, runJobsNow, testJobDeps } from "@/server/testing/jobs";
import { createSelfServiceFixture, read, withSelfpayGateway, type Json } from "@/server/testing/self-service";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import { withUploadDir } from "@/server/testing/upload-dir";

import { buildExportJob, buildMemberExport, EXPORT_MAIL_KIND, exportStorage } from "./build";
import { deleteMemberExports, expireMemberExports } from "./cleanup";
import { EXPORT_SECTIONS } from "./format";
import { requestMemberExport } from "./requests";

/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */
const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

withSelfpayGateway();
const uploads = withUploadDir("masthead-exports-");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "masthead-export-zips-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const DAY = 86_400_000;

async function addComment(db: Db, accountId: number, memberId: number, text: string) {
  const page = await db.page.upsert({
    where: { accountId_url: { accountId, url: "https://news.example/story-1" } },
    update: {},
    create: { accountId, url: "https://news.example/story-1", headline: "Story one" },
  });
  return db.comment.create({
    data: {
      accountId,
      pageId: page.id,
      authorId: memberId,
      body: { ops: [{ insert: `${text}\n` }] },
      bodyDigest: text,
    },
  });
}

/** A publisher with Ada (subscribed, a comment, signed in) and Bob (another reader, his own comment). */
async function setup() {
  const s = await createSelfServiceFixture(await getDb());
  const accountId = s.f.account.id;
  await s.db.member.update({
    where: { id: s.ada.id },
    data: { email: "ada@example.com", communicationEmail: null, bio: "Reads <everything>" },
  });
  await addComment(s.db, accountId, s.ada.id, "Ada's own <b>comment</b>");
  const bob = await s.db.member.create({
    data: { accountId, name: "Bob Other", email: "bob@example.com", passwordHash: "x" },
  });
  await addComment(s.db, accountId, bob.id, "Bob's secret comment");
  const bobSession = await createMemberSession(s.db, { memberId: bob.id, now: new Date(), days: 1 });
  const asAda = { "X-QT-AUTH": s.token };
  const asBob = { "X-QT-AUTH": bobSession.token };
  return { ...s, accountId, bob, asAda, asBob };
}

const deps = (mail = recordingTransport(), at = () => new Date()) => ({ mail, deps: testJobDeps({ mail, clock: at }) });

/** The download link in the export mail to `to`. */
async function mailedLink(db: Db, to: string): Promise<{ id: string; token: string }> {
  const mails = await db.outgoingEmail.findMany({ where: { kind: EXPORT_MAIL_KIND, to } });
  expect(mails).toHaveLength(1);
  const match = /\/api\/member\/privacy\/exports\/([0-9a-f-]{36})\?token=([A-Za-z0-9_-]+)/.exec(mails[0]!.text);
  expect(match).not.toBeNull();
  return { id: match![1]!, token: match![2]! };
}

const download = (id: string, token: string, headers: Record<string, string>) =>
  call(DOWNLOAD, "GET", `/api/member/privacy/exports/${id}?token=${token}`, { id }, undefined, headers);

/** A zip's files, read back by Info-ZIP's unzip. */
async function unzipped(res: Response): Promise<{ list: string; data: Json; html: string }> {
  const file = path.join(scratch, `${Date.now()}-${Math.random().toString(36).slice(2)}.zip`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return {
    list: execFileSync("unzip", ["-l", file], { encoding: "utf8" }),
    data: JSON.parse(execFileSync("unzip", ["-p", file, "data.json"], { encoding: "utf8" })) as Json,
    html: execFileSync("unzip", ["-p", file, "index.html"], { encoding: "utf8" }),
  };
}

// eslint-disable-next-line max-lines-per-function -- a describe block of short cases that share its setup
describe("a reader's data export", () => {
  it("is asked for once, built once under repeated and concurrent runs, mailed once, and downloads the reader's data only", async () => {
    const s = await setup();
    const first = await read(await call(REQUEST, "POST", "/api/member/privacy/exports", {}, { locale: "fr" }, s.asAda));
    expect(first).toMatchObject({ created: true, export: { status: "pending" } });
    const again = await call(REQUEST, "POST", "/api/member/privacy/exports", {}, {}, s.asAda);
    expect(again.status).toBe(202);
    expect(await read(again)).toMatchObject({ created: false, export: { id: first.export.id } });
    expect(await s.db.job.count({ where: { name: "privacy.export.build" } })).toBe(1);

    // Two builds at once, then the job itself twice: one archive, one mail.
    const now = new Date();
    const builds = await Promise.all(
      [0, 1].map(() =>
        withTransaction(s.db, (tx) =>
          buildMemberExport(tx, {
            exportId: first.export.id,
            now,
            appUrl: "http://localhost:3000",
            storage: exportStorage(),
          }),
        ),
      ),
    );
    expect(builds.map((b) => b.built).sort()).toEqual([false, true]);
    const { mail, deps: jobDeps } = deps();
    await runJobsNow(s.db, jobDeps);
    await runJobsNow(s.db, jobDeps);
    expect(mail.sent.filter((m) => m.kind === EXPORT_MAIL_KIND)).toHaveLength(1);
    const sent = mail.sent.find((m) => m.kind === EXPORT_MAIL_KIND)!;
    expect(sent.to).toBe("ada@example.com");
    expect(sent.html).toMatch(/<html lang="fr"/);
    const stored = fs.readdirSync(path.join(uploads.dir, String(s.accountId), "exports"));
    expect(stored).toEqual([`${first.export.id}.zip`]);

    const status = await read(await call(STATUS, "GET", "/api/member/privacy/exports", {}, undefined, s.asAda));
    expect(status.export).toMatchObject({ id: first.export.id, status: "ready" });

    const link = await mailedLink(s.db, "ada@example.com");
    const row = await s.db.memberDataExport.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.tokenHash).not.toContain(link.token);

    const res = await download(link.id, link.token, s.asAda);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("cache-control")).toContain("no-store");
    // The request and the download are audited as the reader's (no staff user), once each.
    for (const action of ["privacy.export", "privacy.export.download"])
      expect(await s.db.auditLog.count({ where: { action, actorId: null, targetId: String(s.ada.id) } }), action).toBe(
        1,
      );
    const zip = await unzipped(res);
    expect(zip.list).toMatch(/data\.json/);
    expect(zip.list).toMatch(/index\.html/);
    expect(Object.keys(zip.data)).toEqual(["format", "version", "generated_at", ...EXPORT_SECTIONS]);
    expect(zip.data).toMatchObject({ format: "masthead.member-export", version: 1 });
    expect(zip.data.member).toMatchObject({ id: s.ada.id, email: "ada@example.com", bio: "Reads <everything>" });
    expect(zip.data.member).not.toHaveProperty("password_hash");
    expect(zip.data.comments).toEqual([
      expect.objectContaining({
        text: "Ada's own <b>comment</b>",
        page_url: "https://news.example/story-1",
        status: "published",
      }),
    ]);
    expect(zip.data.subscriptions).toEqual([expect.objectContaining({ id: s.sub.id, currency: expect.any(String) })]);
    expect(zip.data.sessions.length).toBeGreaterThan(0);
    expect(JSON.stringify(zip.data.sessions)).not.toMatch(/token/i);
    expect(zip.data.data_exports).toEqual([expect.objectContaining({ id: link.id, requested_by: "reader" })]);
    // Nobody else's data: not Bob's comment, name or address, in either file.
    for (const text of [JSON.stringify(zip.data), zip.html]) {
      expect(text).not.toContain("Bob");
      expect(text).not.toContain("bob@example.com");
    }
    expect(zip.html).toMatch(/<html lang="fr" dir="ltr">/);
    expect(zip.html).toContain("own &lt;b&gt;comment&lt;/b&gt;");
    expect(zip.html).toContain("Vos commentaires");
  });

  it("refuses a wrong token, another reader, another account's export, a signed-out caller, and an expired link", async () => {
    const s = await setup();
    await call(REQUEST, "POST", "/api/member/privacy/exports", {}, {}, s.asAda);
    const start = Date.now();
    const { deps: jobDeps } = deps(recordingTransport(), () => new Date(start));
    await runJobsNow(s.db, jobDeps);
    const link = await mailedLink(s.db, "ada@example.com");

    const wrong = await download(link.id, `${link.token.slice(0, -2)}xx`, s.asAda);
    expect(wrong.status).toBe(404);
    expect((await download(link.id, link.token, s.asBob)).status).toBe(403);
    expect((await download(link.id, link.token, {})).status).toBe(401);
    const browser = await download(link.id, link.token, { accept: "text/html" });
    expect(browser.status).toBe(303);
    expect(browser.headers.get("location")).toMatch(
      /^\/member\/login\?return_to=%2Fapi%2Fmember%2Fprivacy%2Fexports%2F/,
    );
    expect(
      (
        await call(
          DOWNLOAD,
          "GET",
          `/api/member/privacy/exports/nope?token=${link.token}`,
          { id: "nope" },
          undefined,
          s.asAda,
        )
      ).status,
    ).toBe(400);

    // Another account's reader, with their own built export: Ada's session cannot reach it.
    const other = await createTestStaff(s.db, { roles: ["OWNER"] });
    const carol = await s.db.member.create({
      data: { accountId: other.account.id, name: "Carol", email: "carol@example.com", passwordHash: "x" },
    });
    const carols = await requestMemberExport(s.db, {
      accountId: other.account.id,
      memberId: carol.id,
      now: new Date(start),
    });
    await runJobsNow(s.db, jobDeps);
    const carolLink = await mailedLink(s.db, "carol@example.com");
    expect(carolLink.id).toBe(carols.export.id);
    expect((await download(carolLink.id, carolLink.token, s.asAda)).status).toBe(404);

    // Seven days on: the cleanup deletes the archive; the link answers 410 with a clear message.
    const later = new Date(start + 7 * DAY + 1000);
    const result = await expireMemberExports(s.db, { now: later, storage: exportStorage() });
    expect(result.expired).toBe(2);
    expect(fs.readdirSync(path.join(uploads.dir, String(s.accountId), "exports"))).toEqual([]);
    const gone = await download(link.id, link.token, s.asAda);
    expect(gone.status).toBe(410);
    expect((await read(gone)).error.message).toMatch(/expired/);
    expect(
      (await read(await call(STATUS, "GET", "/api/member/privacy/exports", {}, undefined, s.asAda))).export.status,
    ).toBe("expired");
    // A new request is possible again, and rows go 30 days after expiry.
    expect((await read(await call(REQUEST, "POST", "/api/member/privacy/exports", {}, {}, s.asAda))).created).toBe(
      true,
    );
    const purged = await expireMemberExports(s.db, { now: new Date(start + 38 * DAY), storage: exportStorage() });
    expect(purged.deleted).toBe(2);
  });

  it("lets staff produce a reader's export, audited, downloadable only by them, optionally mailed", async () => {
    const s = await setup();
    const revenue = await createTestStaff(s.db, { account: s.accountId, roles: ["REVENUE"] });
    const owner = await createTestStaff(s.db, { account: s.accountId, roles: ["OWNER"] });
    const editor = await createTestStaff(s.db, { account: s.accountId, roles: ["EDITOR"] });
    const elsewhere = await createTestStaff(s.db, { roles: ["OWNER"] });

    expect(await trpcCodeOf(editor.caller.privacyExports.create({ memberId: s.ada.id }))).toBe("FORBIDDEN");
    expect(await trpcCodeOf(elsewhere.caller.privacyExports.create({ memberId: s.ada.id }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(revenue.caller.privacyExports.create({ memberId: 0 }))).toBe("BAD_REQUEST");
    expect(await s.db.memberDataExport.count()).toBe(0);

    const made = await revenue.caller.privacyExports.create({ memberId: s.ada.id, mailReader: false });
    expect(made).toMatchObject({ status: "pending", requested_by: "staff", downloadable: false });
    const audit = await s.db.auditLog.findFirstOrThrow({ where: { action: "privacy.export", actorId: { not: null } } });
    expect(audit).toMatchObject({ actorId: revenue.user.id, targetType: "member", targetId: String(s.ada.id) });

    const { mail, deps: jobDeps } = deps();
    await runJobsNow(s.db, jobDeps);
    expect(mail.sent.filter((m) => m.kind === EXPORT_MAIL_KIND)).toHaveLength(0);
    const listed = await revenue.caller.privacyExports.list({ memberId: s.ada.id });
    expect(listed).toEqual([expect.objectContaining({ id: made.id, status: "ready", downloadable: true })]);
    expect((await owner.caller.privacyExports.list({ memberId: s.ada.id }))[0]!.downloadable).toBe(false);

    const fetchAs = (who: AdminSession | null) => {
      session.current = who;
      return call(STAFF_DOWNLOAD, "GET", `/api/admin/privacy/exports/${made.id}`, { id: made.id });
    };
    try {
      expect((await fetchAs(owner.session)).status).toBe(403);
      expect((await fetchAs(elsewhere.session)).status).toBe(404);
      expect((await fetchAs(editor.session)).status).toBe(403);
      const res = await fetchAs(revenue.session);
      expect(res.status).toBe(200);
      const zip = await unzipped(res);
      expect(zip.data.member).toMatchObject({ id: s.ada.id });
      expect(zip.data.data_exports).toEqual([expect.objectContaining({ requested_by: "staff" })]);
    } finally {
      session.current = null;
    }
    expect(await s.db.auditLog.count({ where: { action: "privacy.export.download", actorId: revenue.user.id } })).toBe(
      1,
    );

    // Mailed to the reader too: the mail says staff prepared it; the reader's link works for them.
    await revenue.caller.privacyExports.create({ memberId: s.ada.id, mailReader: true });
    await runJobsNow(s.db, jobDeps);
    const link = await mailedLink(s.db, "ada@example.com");
    expect((await download(link.id, link.token, s.asAda)).status).toBe(200);
  });

  it("deleteMemberExports removes a reader's archives and rows, and only theirs", async () => {
    const s = await setup();
    // (A reader known only by a placeholder address cannot ask: the link goes by mail.)
    const noMail = await s.db.member.create({
      data: { accountId: s.accountId, name: "No Mail", email: placeholderEmail("jwt"), passwordHash: "x" },
    });
    const noMailSession = await createMemberSession(s.db, { memberId: noMail.id, now: new Date(), days: 1 });
    const refused = await call(
      REQUEST,
      "POST",
      "/api/member/privacy/exports",
      {},
      {},
      { "X-QT-AUTH": noMailSession.token },
    );
    expect(refused.status).toBe(422);
    // A build that failed for good ends the request, so the reader may ask again.
    const stuck = await read(await call(REQUEST, "POST", "/api/member/privacy/exports", {}, {}, s.asBob));
    await withTransaction(s.db, (tx) =>
      buildExportJob.onFailed!(
        tx,
        {
          id: stuck.export.id,
          name: buildExportJob.name,
          payload: { exportId: stuck.export.id },
          attempts: 5,
          accountId: s.accountId,
        },
        "storage down",
        { ...testJobDeps(), workerId: "test" },
      ),
    );
    expect(
      (await read(await call(STATUS, "GET", "/api/member/privacy/exports", {}, undefined, s.asBob))).export.status,
    ).toBe("expired");
    await call(REQUEST, "POST", "/api/member/privacy/exports", {}, {}, s.asAda);
    await call(REQUEST, "POST", "/api/member/privacy/exports", {}, {}, s.asBob);
    await runJobsNow(s.db, deps().deps);
    const dir = path.join(uploads.dir, String(s.accountId), "exports");
    expect(fs.readdirSync(dir)).toHaveLength(2);
    // A pending one too (its job then finds nothing to build).
    await s.db.memberDataExport.create({
      data: { accountId: s.accountId, memberId: s.ada.id, requestedBy: "staff", mailReader: false, locale: "en" },
    });
    expect(await deleteMemberExports(s.db, s.accountId, s.ada.id)).toBe(2);
    expect(await deleteMemberExports(s.db, s.accountId + 999, s.bob.id)).toBe(0);
    expect(await s.db.memberDataExport.count({ where: { memberId: s.ada.id } })).toBe(0);
    expect(await s.db.memberDataExport.count({ where: { memberId: s.bob.id } })).toBe(2); // the ended one and the built one
    expect(fs.readdirSync(dir)).toHaveLength(1);
    expect(await deleteMemberExports(s.db, s.accountId, s.ada.id)).toBe(0);
  });
});
