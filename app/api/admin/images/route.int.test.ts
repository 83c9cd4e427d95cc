// POST /api/admin/images and GET /images/<key>: real multipart requests, real files, both databases.
import fs from "node:fs/promises";
import path from "node:path";

import { beforeEach, describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import type { AdminRole } from "@/server/auth/roles";
import { getDb } from "@/server/db";
import { testPng } from "@/server/testing/png";
import { createTestStaff } from "@/server/testing/staff";
import { withUploadDir } from "@/server/testing/upload-dir";

// The dashboard session comes from the next-auth cookie in the app; here the test says who is signed in.
const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST, GET: GET_UPLOAD } = await import("./route");
const { GET } = await import("../../../images/[...key]/route");

/** A real PNG, width × height, grey pixels. */
const png = (width: number, height: number): Buffer => testPng(width, height);

function upload(bytes: Buffer, options: { name?: string; type?: string; field?: string } = {}) {
  const form = new FormData();
  form.append(
    options.field ?? "file",
    new Blob([new Uint8Array(bytes)], { type: options.type ?? "image/png" }),
    options.name ?? "photo.png",
  );
  return POST(new Request("http://localhost/api/admin/images", { method: "POST", body: form }), {
    params: Promise.resolve({}),
  });
}

const serve = (key: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://localhost/images/${key}`, { headers }), { params: Promise.resolve({ key: key.split("/") }) });

const uploads = withUploadDir("masthead-uploads-", { UPLOAD_MAX_BYTES: "4096" });

async function signIn(roles: AdminRole[]) {
  const staff = await createTestStaff(await getDb(), { roles });
  session.current = staff.session;
  return { accountId: staff.account.id, userId: staff.user.id };
}

beforeEach(async () => {
  session.current = null;
});

describe("POST /api/admin/images", () => {
  it("stores a real PNG under <account>/<yyyy>/<mm>/<uuid>.png with its size, and serves it back", async () => {
    const { accountId, userId } = await signIn(["EDITOR"]);
    const image = png(3, 2);
    const response = await upload(image, { name: "../../evil.exe", type: "application/octet-stream" });
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      key: string;
      url: string;
      width: number;
      height: number;
      "mime-type": string;
    };
    const now = new Date();
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    expect(body.key).toMatch(new RegExp(`^${accountId}/${month}/[0-9a-f-]{36}\\.png$`));
    expect(body).toMatchObject({ width: 3, height: 2, "mime-type": "image/png" });
    expect(body.url).toMatch(new RegExp(`/images/${body.key}$`));
    expect(await fs.readFile(path.join(uploads.dir, ...body.key.split("/")))).toEqual(image);

    const db = await getDb();
    expect(await db.imageAsset.findUniqueOrThrow({ where: { key: body.key } })).toMatchObject({
      accountId,
      mimeType: "image/png",
      bytes: image.length,
      width: 3,
      height: 2,
      uploadedById: userId,
    });
    expect((await db.auditLog.findFirstOrThrow({ where: { action: "image.upload" } })).targetId).toBeTruthy();

    const served = await serve(body.key);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(image);
    const etag = served.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f-]{36}"$/);
    const again = await serve(body.key, { "If-None-Match": etag });
    expect(again.status).toBe(304);
  });

  it("judges by content: a text file declared as PNG is 415; a file over UPLOAD_MAX_BYTES is 413; nothing is kept", async () => {
    await signIn(["OWNER"]);
    const fake = await upload(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"), {
      type: "image/png",
    });
    expect(fake.status).toBe(415);
    expect(((await fake.json()) as { error: { code: string } }).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    // Starts like a PNG but is not one.
    expect((await upload(Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.from("garbage")]))).status).toBe(
      415,
    );

    const big = Buffer.concat([png(1, 1), Buffer.alloc(5000)]);
    const tooBig = await upload(big);
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
    // Far over the limit: refused from Content-Length / while streaming.
    expect((await upload(Buffer.alloc(200_000))).status).toBe(413);

    expect(await (await getDb()).imageAsset.count()).toBe(0);
    expect(await fs.readdir(uploads.dir)).toEqual([]);
  });

  it('needs a signed-in editor (401, 403), a multipart body (415) and the field "file" (400)', async () => {
    const anonymous = await upload(png(1, 1));
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    await signIn(["MODERATOR"]);
    expect((await upload(png(1, 1))).status).toBe(403);

    await signIn(["EDITOR"]);
    expect((await upload(png(1, 1), { field: "image" })).status).toBe(400);
    const json = await POST(
      new Request("http://localhost/api/admin/images", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: "{}",
      }),
      { params: Promise.resolve({}) },
    );
    expect(json.status).toBe(415);
    expect(
      (await GET_UPLOAD(new Request("http://localhost/api/admin/images"), { params: Promise.resolve({}) })).status,
    ).toBe(405);
  });

  it("lets a contributor upload (for their stories)", async () => {
    await signIn(["CONTRIBUTOR"]);
    expect((await upload(png(2, 2))).status).toBe(201);
  });
});

describe("GET /images/<key>", () => {
  it("is 404 for unknown keys and refuses anything that could leave the upload folder", async () => {
    await signIn(["EDITOR"]);
    const { key } = (await (await upload(png(2, 2))).json()) as { key: string };
    expect((await serve(key.replace(/[0-9a-f]{8}-/, "00000000-"))).status).toBe(404);
    expect((await serve("1/2024/01/not-a-key.png")).status).toBe(404);

    // A file in the folder that no upload recorded is not served either.
    await fs.writeFile(path.join(uploads.dir, "secret.png"), "x");
    expect((await serve("secret.png")).status).toBe(404);

    const attempts: { url: string; segments: string[] }[] = [
      { url: "http://localhost/images/..%2F..%2Fetc%2Fpasswd", segments: ["../../etc/passwd"] },
      { url: "http://localhost/images/%2e%2e/%2e%2e/etc/passwd", segments: ["..", "..", "etc", "passwd"] },
      { url: "http://localhost/images/1/2024/01/x.png", segments: ["1", "..", "..", "package.json"] },
      { url: "http://localhost/images/1/2024/01/x.png", segments: ["/etc", "passwd"] },
      {
        url: "http://localhost/images/1/2024/01/x.png",
        segments: [...key.split("/").slice(0, 2), `${key.split("/").slice(2).join("%2F")}`],
      },
    ];
    for (const attempt of attempts) {
      const response = await GET(new Request(attempt.url), { params: Promise.resolve({ key: attempt.segments }) });
      expect([400, 404], attempt.segments.join("/")).toContain(response.status);
      expect(response.headers.get("content-type")).toContain("application/json");
    }
    const decodedSlash = await GET(new Request(`http://localhost/images/${key.replaceAll("/", "%2F")}`), {
      params: Promise.resolve({ key: [key] }),
    });
    expect(decodedSlash.status).toBe(400);
  });
});
