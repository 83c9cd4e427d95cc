// POST and DELETE /api/admin/files, GET /files/<key>: real multipart requests, real files, both databases.
import fs from "node:fs/promises";
import path from "node:path";

import { beforeEach, describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import type { AdminRole } from "@/server/auth/roles";
import { getDb } from "@/server/db";
import type { TCard } from "@/server/publishing/cards.schema";
import { testOffice, testPdf, testZip } from "@/server/testing/documents";
import { testPng } from "@/server/testing/png";
import { insertStory } from "@/server/testing/publishing-factories";
import { createTestStaff } from "@/server/testing/staff";
import { withUploadDir } from "@/server/testing/upload-dir";

// The dashboard session comes from the next-auth cookie in the app; here the test says who is signed in.
const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST, DELETE, GET: GET_UPLOAD } = await import("./route");
const { GET } = await import("../../../files/[...key]/route");
const { GET: GET_IMAGE } = await import("../../../images/[...key]/route");

const MAX = 8192;
const none = { params: Promise.resolve({}) };

type Uploaded = { key: string; url: string; "file-name": string; "content-type": string; bytes: number };

function upload(bytes: Uint8Array, name: string, options: { type?: string; field?: string } = {}) {
  const form = new FormData();
  form.append(
    options.field ?? "file",
    new Blob([new Uint8Array(bytes)], { type: options.type ?? "application/octet-stream" }),
    name,
  );
  return POST(new Request("http://localhost/api/admin/files", { method: "POST", body: form }), none);
}

const remove = (key: string) =>
  DELETE(new Request(`http://localhost/api/admin/files?key=${encodeURIComponent(key)}`, { method: "DELETE" }), none);

const serve = (key: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://localhost/files/${key}`, { headers }), { params: Promise.resolve({ key: key.split("/") }) });

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; details?: { issue: string }[] } }).error;

const uploads = withUploadDir("masthead-files-", {
  FILE_UPLOAD_MAX_BYTES: String(MAX),
  APP_URL: "https://news.example.test",
});

async function signIn(roles: AdminRole[], account?: number) {
  const staff = await createTestStaff(await getDb(), { roles, account });
  session.current = staff.session;
  return { accountId: staff.account.id, userId: staff.user.id };
}

/** A story whose cards hold a file element linking to `url`. */
function fileCards(url: string): TCard[] {
  return [
    {
      id: "7d8a3f0e-4b7f-4d0c-9a67-2f3f6e0b1c11",
      status: "draft",
      version: 1,
      metadata: {},
      "story-elements": [
        {
          id: "0b6d1c7e-8a83-4f4c-9d6e-2a9b5f1e7c22",
          type: "file",
          subtype: "attachment",
          "file-url": url,
          "file-name": "Budget.pdf",
          "content-type": "application/pdf",
          metadata: {},
        },
      ],
    },
  ] as unknown as TCard[];
}

beforeEach(async () => {
  session.current = null;
});

describe("POST /api/admin/files", () => {
  it("keeps each accepted type under <account>/files/<yyyy>/<mm>/<uuid>.<ext>, judged by its bytes, recorded and audited", async () => {
    const { accountId, userId } = await signIn(["EDITOR"]);
    const now = new Date();
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    const cases: { bytes: Buffer; name: string; type: string; ext: string }[] = [
      { bytes: testPdf("Budget"), name: "Budget 2026.pdf", type: "application/pdf", ext: "pdf" },
      {
        bytes: testOffice("docx"),
        name: "Letter.docx",
        type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ext: "docx",
      },
      {
        bytes: testOffice("xlsx"),
        name: "Figures.xlsx",
        type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ext: "xlsx",
      },
      {
        bytes: testOffice("pptx"),
        name: "Slides.pptx",
        type: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        ext: "pptx",
      },
      { bytes: Buffer.from("Grüße aus Köln\n"), name: "notes.txt", type: "text/plain", ext: "txt" },
      { bytes: Buffer.from("ward,votes\nNorth,1203\n"), name: "results.csv", type: "text/csv", ext: "csv" },
    ];
    const db = await getDb();
    for (const item of cases) {
      // The browser's declared type is ignored: everything is sent as octet-stream.
      const response = await upload(item.bytes, item.name);
      expect(response.status, item.name).toBe(201);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = (await response.json()) as Uploaded;
      expect(body.key).toMatch(new RegExp(`^${accountId}/files/${month}/[0-9a-f-]{36}\\.${item.ext}$`));
      expect(body).toMatchObject({ "file-name": item.name, "content-type": item.type, bytes: item.bytes.length });
      expect(body.url).toBe(`https://news.example.test/files/${body.key}`);
      expect(await fs.readFile(path.join(uploads.dir, ...body.key.split("/")))).toEqual(item.bytes);
      expect(await db.fileAsset.findUniqueOrThrow({ where: { key: body.key } })).toMatchObject({
        accountId,
        fileName: item.name,
        mimeType: item.type,
        bytes: item.bytes.length,
        uploadedById: userId,
      });
    }
    const audits = await db.auditLog.findMany({ where: { action: "file.upload" } });
    expect(audits).toHaveLength(cases.length);
    expect(audits[0]).toMatchObject({ targetType: "file", actorId: userId });
    // A file is not an image: the image route does not serve it.
    const [first] = await db.fileAsset.findMany({ take: 1 });
    const asImage = await GET_IMAGE(new Request(`http://localhost/images/${first!.key}`), {
      params: Promise.resolve({ key: first!.key.split("/") }),
    });
    expect(asImage.status).toBe(404);
  });

  it("cleans the name: no folders, no markup, and a name-less file gets one from its type", async () => {
    await signIn(["OWNER"]);
    const body = (await (await upload(testPdf(), "../../Secret <b>plan.pdf")).json()) as Uploaded;
    expect(body["file-name"]).toBe("Secret plan.pdf");
    const nameless = (await (await upload(testPdf(), "../<script>")).json()) as Uploaded;
    expect(nameless["file-name"]).toBe("file.pdf");
  });

  it("415 for HTML, SVG, a plain ZIP, an image or an executable, whatever they are called; 413 over FILE_UPLOAD_MAX_BYTES; nothing kept", async () => {
    await signIn(["EDITOR"]);
    const refused: [Uint8Array, string, string][] = [
      [Buffer.from("<!doctype html><script>alert(document.cookie)</script>"), "page.pdf", "application/pdf"],
      [Buffer.from("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>"), "chart.csv", "text/csv"],
      [testZip({ "notes.txt": "hello", "word.txt": "x" }), "archive.docx", "application/zip"],
      [testPng(2, 2), "photo.pdf", "application/pdf"],
      [Buffer.concat([Buffer.from("MZ"), Buffer.alloc(64)]), "setup.txt", "text/plain"],
    ];
    for (const [bytes, name, type] of refused) {
      const response = await upload(bytes, name, { type });
      expect(response.status, name).toBe(415);
      const error = await errorOf(response);
      expect(error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      expect(error.message).toContain("PDF, Word (.docx), Excel (.xlsx), PowerPoint (.pptx), plain text or CSV");
    }

    const tooBig = await upload(Buffer.concat([testPdf(), Buffer.alloc(MAX)]), "big.pdf");
    expect(tooBig.status).toBe(413);
    expect((await errorOf(tooBig)).code).toBe("PAYLOAD_TOO_LARGE");
    // Far over the limit: refused while streaming.
    expect((await upload(Buffer.alloc(200_000, 0x61), "huge.txt")).status).toBe(413);
    expect((await upload(new Uint8Array(0), "empty.txt")).status).toBe(400);

    const db = await getDb();
    expect(await db.fileAsset.count()).toBe(0);
    expect(await db.auditLog.count({ where: { action: "file.upload" } })).toBe(0);
    expect(await fs.readdir(uploads.dir)).toEqual([]);
  });

  it('needs a signed-in editor or owner (401 anonymous or reader, 403 other roles), multipart (415) and the field "file" (400)', async () => {
    // A reader's session is no dashboard session: the route sees nobody signed in.
    const anonymous = await upload(testPdf(), "a.pdf");
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).code).toBe("UNAUTHORIZED");
    for (const role of ["MODERATOR", "REVENUE"] as const) {
      await signIn([role]);
      expect((await upload(testPdf(), "a.pdf")).status, role).toBe(403);
      expect((await remove("1/files/2026/01/0f8fad5b-d9cb-469f-a165-70867728950e.pdf")).status, role).toBe(403);
    }
    await signIn(["EDITOR"]);
    expect((await upload(testPdf(), "a.pdf", { field: "document" })).status).toBe(400);
    const json = await POST(
      new Request("http://localhost/api/admin/files", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      }),
      none,
    );
    expect(json.status).toBe(415);
    expect((await GET_UPLOAD(new Request("http://localhost/api/admin/files"), none)).status).toBe(405);
    expect(await (await getDb()).fileAsset.count()).toBe(0);
  });
});

describe("GET /files/<key>", () => {
  it("serves a recorded file as a sandboxed download with its recorded type, cached for good (ETag, 304)", async () => {
    await signIn(["EDITOR"]);
    const pdf = testPdf("Served");
    const { key } = (await (await upload(pdf, "Haushalt – Entwurf.pdf")).json()) as Uploaded;
    session.current = null;
    const served = await serve(key);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("content-disposition")).toBe(
      `attachment; filename="Haushalt _ Entwurf.pdf"; filename*=UTF-8''Haushalt%20%E2%80%93%20Entwurf.pdf`,
    );
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("content-length")).toBe(String(pdf.length));
    expect(Buffer.from(await served.arrayBuffer())).toEqual(pdf);
    const etag = served.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f-]{36}"$/);
    const again = await serve(key, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("content-disposition")).toMatch(/^attachment;/);

    // Text is served as UTF-8 text, saved under its own extension whatever it was called.
    await signIn(["EDITOR"]);
    const text = (await (await upload(Buffer.from("plain words"), "run.exe")).json()) as Uploaded;
    const served2 = await serve(text.key);
    expect(served2.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(served2.headers.get("content-disposition")).toContain(`filename="run.exe.txt"`);
  });

  it("is 404 for unknown keys, image keys and unrecorded bytes; 400 for encoded or dotted paths", async () => {
    const { accountId } = await signIn(["EDITOR"]);
    const { key } = (await (await upload(testPdf(), "a.pdf")).json()) as Uploaded;
    expect((await serve(key.replace(/[0-9a-f]{8}-/, "00000000-"))).status).toBe(404);
    expect((await serve(`${accountId}/2026/01/0f8fad5b-d9cb-469f-a165-70867728950e.png`)).status).toBe(404);
    const unrecorded = `${accountId}/files/2026/01/0f8fad5b-d9cb-469f-a165-70867728950e.pdf`;
    await fs.mkdir(path.join(uploads.dir, `${accountId}/files/2026/01`), { recursive: true });
    await fs.writeFile(path.join(uploads.dir, ...unrecorded.split("/")), testPdf());
    expect((await serve(unrecorded)).status).toBe(404);

    const attempts: { url: string; segments: string[] }[] = [
      { url: "http://localhost/files/%2e%2e/%2e%2e/etc/passwd", segments: ["..", "..", "etc", "passwd"] },
      { url: "http://localhost/files/..%2F..%2Fpackage.json", segments: ["../../package.json"] },
      { url: "http://localhost/files/1/files/x.pdf", segments: ["1", "files", "..", "package.json"] },
      { url: "http://localhost/files/1/files/x.pdf", segments: [".env"] },
    ];
    for (const attempt of attempts) {
      const response = await GET(new Request(attempt.url), { params: Promise.resolve({ key: attempt.segments }) });
      expect(response.status, attempt.segments.join("/")).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/json");
    }
  });
});

describe("DELETE /api/admin/files", () => {
  it("409 naming the story while a story links to the file; 204 once it does not, then GET is 404 and the bytes are gone", async () => {
    const { accountId, userId } = await signIn(["EDITOR"]);
    const uploaded = (await (await upload(testPdf(), "Budget.pdf")).json()) as Uploaded;
    const db = await getDb();
    const story = await insertStory(db, accountId, {
      headline: "The council's budget",
      status: "DRAFT",
      cards: fileCards(uploaded.url),
    });

    const conflict = await remove(uploaded.key);
    expect(conflict.status).toBe(409);
    const error = await errorOf(conflict);
    expect(error.code).toBe("CONFLICT");
    expect(error.message).toContain("The council's budget");
    expect(error.details?.[0]?.issue).toContain(story.id);
    expect(await db.fileAsset.count()).toBe(1);
    expect((await serve(uploaded.key)).status).toBe(200);

    await db.story.update({ where: { id: story.id }, data: { cards: [] } });
    const deleted = await remove(uploaded.key);
    expect(deleted.status).toBe(204);
    expect(await db.fileAsset.count()).toBe(0);
    expect((await serve(uploaded.key)).status).toBe(404);
    await expect(fs.stat(path.join(uploads.dir, ...uploaded.key.split("/")))).rejects.toThrow();
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "file.delete" } })).toMatchObject({
      targetType: "file",
      actorId: userId,
    });
    expect((await remove(uploaded.key)).status).toBe(404);
  });

  it("404 for another account's file (kept), 400 for something that is no file key", async () => {
    const { accountId } = await signIn(["EDITOR"]);
    const theirs = (await (await upload(testPdf(), "theirs.pdf")).json()) as Uploaded;
    await signIn(["OWNER"]);
    const other = await remove(theirs.key);
    expect(other.status).toBe(404);
    expect(await (await getDb()).fileAsset.count({ where: { accountId } })).toBe(1);
    expect((await serve(theirs.key)).status).toBe(200);

    const bad = await remove("../../etc/passwd");
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe("BAD_REQUEST");
  });
});
