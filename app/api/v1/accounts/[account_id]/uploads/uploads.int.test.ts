// POST /api/v1/accounts/{id}/uploads: readers' comment images, real multipart requests and files, both databases.
import fs from "node:fs/promises";

import { describe, expect, it } from "vitest";

import { getEnv } from "@/env.js";
import { READER_UPLOAD } from "@/server/engagement/uploads";
import { ENGAGEMENT_RATE_LIMITS } from "@/server/http/engagement-limits";
import { setupPublisher } from "@/server/testing/comment-calls";
import { call, pageId, readerJwt } from "@/server/testing/engagement";
import { testPng } from "@/server/testing/png";
import { createTestStaff } from "@/server/testing/staff";
import { withUploadDir } from "@/server/testing/upload-dir";

import { GET as SERVE } from "../../../../../images/[...key]/route";
import { POST as COMMENT } from "../pages/[encoded_url]/comments.json/route";
import { POST } from "./route";

type ErrorBody = { error: { code: string; message: string } };

const uploads = withUploadDir("masthead-reader-uploads-");

function upload(id: string, bytes: Uint8Array, options: { jwt?: string; name?: string; type?: string } = {}) {
  const form = new FormData();
  form.append(
    "file",
    new Blob([new Uint8Array(bytes)], { type: options.type ?? "image/png" }),
    options.name ?? "a.png",
  );
  const query = options.jwt ? `?jwt=${options.jwt}` : "";
  return POST(new Request(`http://localhost/api/v1/accounts/${id}/uploads${query}`, { method: "POST", body: form }), {
    params: Promise.resolve({ account_id: id }),
  });
}

const serve = (key: string) =>
  SERVE(new Request(`http://localhost/images/${key}`), { params: Promise.resolve({ key: key.split("/") }) });

describe("POST /api/v1/accounts/{id}/uploads", () => {
  it("keeps a real PNG as the reader's, serves it safely, and a comment takes its url", async () => {
    const { db, id, account } = await setupPublisher();
    const jwt = await readerJwt({ id: "uploader", name: "Ada" });
    const res = await upload(id, testPng(4, 3), { jwt, name: "../../x.svg", type: "image/svg+xml" });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    const body = (await res.json()) as { url: string; width: number; height: number };
    expect(Object.keys(body).sort()).toEqual(["height", "url", "width"]);
    expect(body).toMatchObject({ width: 4, height: 3 });
    expect(body.url).toMatch(
      new RegExp(`^${getEnv().APP_URL}/images/${account.id}/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`),
    );

    const asset = await db.imageAsset.findFirstOrThrow();
    const member = await db.member.findFirstOrThrow();
    expect(asset).toMatchObject({ accountId: account.id, mimeType: "image/png", uploadedByMemberId: member.id });
    expect(asset.uploadedById).toBeNull();

    const served = await serve(asset.key);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");

    const comment = await call(
      COMMENT,
      "POST",
      "/x",
      { account_id: id, encoded_url: pageId("https://news.example.com/a") },
      { comment: { body: { ops: [{ insert: { image: body.url } }] } }, jwt },
    );
    expect(comment.status).toBe(201);
  });

  it("refuses a banned reader's upload (403) and keeps nothing", async () => {
    const { db, id, account } = await setupPublisher();
    const jwt = await readerJwt({ id: "banned-uploader", name: "Mallory" });
    expect((await upload(id, testPng(4, 3), { jwt })).status).toBe(201);
    const member = await db.member.findFirstOrThrow({ where: { accountId: account.id, name: "Mallory" } });
    const moderator = await createTestStaff(db, { account: account.id, roles: ["MODERATOR"] });
    await db.commentBan.create({
      data: { accountId: account.id, memberId: member.id, reason: "abuse", createdById: moderator.user.id },
    });
    const res = await upload(id, testPng(5, 5), { jwt });
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).error.code).toBe("FORBIDDEN");
    expect(await db.imageAsset.count()).toBe(1);
  });

  it("refuses SVG and wrong magic bytes (415), files over 5 MiB (413), huge dimensions (422), no jwt (401)", async () => {
    const { db, id } = await setupPublisher();
    const jwt = await readerJwt();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const svgRes = await upload(id, svg, { jwt, name: "a.svg", type: "image/svg+xml" });
    expect(svgRes.status).toBe(415);
    expect(((await svgRes.json()) as ErrorBody).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");

    // Named and typed as a PNG, but HTML inside.
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    expect((await upload(id, html, { jwt })).status).toBe(415);
    // PNG magic bytes, then nothing readable.
    expect((await upload(id, Buffer.from("89504e470d0a1a0a0000", "hex"), { jwt })).status).toBe(415);

    const big = Buffer.alloc(READER_UPLOAD.maxBytes + 1);
    testPng(2, 2).copy(big);
    const bigRes = await upload(id, big, { jwt });
    expect(bigRes.status).toBe(413);
    expect(((await bigRes.json()) as ErrorBody).error.code).toBe("PAYLOAD_TOO_LARGE");

    const wide = await upload(id, testPng(READER_UPLOAD.maxSide + 1, 1), { jwt });
    expect(wide.status).toBe(422);

    expect((await upload(id, testPng(2, 2))).status).toBe(401);
    expect(await db.imageAsset.count()).toBe(0);
    expect(await fs.readdir(uploads.dir)).toEqual([]);
  });

  it("limits uploads per reader (429 with Retry-After)", async () => {
    const { id } = await setupPublisher();
    const perReader = ENGAGEMENT_RATE_LIMITS.upload.find((r) => r.by === "reader")!.limit;
    const jwt = await readerJwt({ id: "busy", name: "Busy" });
    for (let i = 0; i < perReader; i++) expect((await upload(id, testPng(1, 1, i), { jwt })).status).toBe(201);
    const refused = await upload(id, testPng(1, 1), { jwt });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await readerJwt({ id: "calm", name: "Calm" });
    expect((await upload(id, testPng(1, 1), { jwt: other })).status).toBe(201);
  });
});
