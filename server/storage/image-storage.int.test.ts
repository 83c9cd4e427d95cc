// One suite, two image storages: the local disk and S3 (a real S3-compatible server, s3rver, on
// 127.0.0.1, through the AWS SDK). Each passes the same storage contract, and the same upload →
// serve → delete round trip through the route handlers, chosen by the environment as in the app.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { getEnv, resetEnvCache } from "@/env.js";
import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { testPng } from "@/server/testing/png";
import { insertStory } from "@/server/testing/publishing-factories";
import { startS3Server, type TestS3Server } from "@/server/testing/s3-server";
import { createTestStaff } from "@/server/testing/staff";

import { diskImageStorage, imageStorageFromEnv, s3ImageStorage, type ImageStorage } from "./image-storage";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST, DELETE } = await import("@/app/api/admin/images/route");
const { GET } = await import("@/app/images/[...key]/route");

/** A real 2×2 greyscale PNG. */
const png = (shade: number): Buffer => testPng(2, 2, shade);

const ENV_KEYS = [
  "UPLOAD_DIR",
  "S3_BUCKET",
  "S3_ENDPOINT",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_FORCE_PATH_STYLE",
  "IMAGE_PUBLIC_BASE_URL",
] as const;

function configure(values: Partial<Record<(typeof ENV_KEYS)[number], string>>) {
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, values);
  resetEnvCache();
}

let s3: TestS3Server;
let uploadDir: string;

beforeAll(async () => {
  s3 = await startS3Server();
  uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), "masthead-storage-"));
});

afterAll(async () => {
  configure({});
  await s3.close();
  await fs.rm(uploadDir, { recursive: true, force: true });
});

beforeEach(() => {
  session.current = null;
});

type Backend = {
  name: "disk" | "s3";
  env: () => Partial<Record<(typeof ENV_KEYS)[number], string>>;
  storage: () => ImageStorage;
};

const backends: Backend[] = [
  { name: "disk", env: () => ({ UPLOAD_DIR: uploadDir }), storage: () => diskImageStorage(uploadDir) },
  {
    name: "s3",
    env: () => ({
      UPLOAD_DIR: uploadDir,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    }),
    storage: () =>
      s3ImageStorage({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: "us-east-1",
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
      }),
  },
];

const read = async (body: ReadableStream<Uint8Array>) => Buffer.from(await new Response(body).arrayBuffer());

const serve = (key: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://localhost/images/${key}`, { headers }), { params: Promise.resolve({ key: key.split("/") }) });

function upload(bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "photo.png");
  return POST(new Request("http://localhost/api/admin/images", { method: "POST", body: form }), {
    params: Promise.resolve({}),
  });
}

const remove = (key: string) =>
  DELETE(new Request(`http://localhost/api/admin/images?key=${encodeURIComponent(key)}`, { method: "DELETE" }), {
    params: Promise.resolve({}),
  });

describe.each(backends)("image storage: $name", (backend) => {
  beforeEach(() => configure(backend.env()));

  it("is the one the environment chooses", () => {
    expect(imageStorageFromEnv(getEnv()).name).toBe(backend.name);
  });

  it("puts, gets with size and type, and deletes by key; a missing key is null, deleting it again is fine", async () => {
    const storage = backend.storage();
    const key = `9/2026/03/${crypto.randomUUID()}.png`;
    const bytes = png(0x40);
    expect(await storage.get(key)).toBeNull();
    await storage.put(key, bytes, { contentType: "image/png" });
    const object = await storage.get(key);
    expect(object).not.toBeNull();
    expect(object!.size).toBe(bytes.length);
    expect(object!.contentType).toBe("image/png");
    expect(await read(object!.body)).toEqual(bytes);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
    await storage.delete(key);
    // Keys that could leave the folder or the key space are refused, never resolved.
    for (const bad of ["../etc/passwd", "/abs/key.png", "a//b.png", "a/../b.png", "a\\b.png"]) {
      expect(await storage.get(bad)).toBeNull();
      await expect(storage.put(bad, bytes, { contentType: "image/png" })).rejects.toThrow("Not a storage key.");
    }
  });

  it("uploads, serves through /images/<key> (same headers, ETag, 304) and deletes through the routes", async () => {
    const staff = await createTestStaff(await getDb(), { roles: ["EDITOR"] });
    session.current = staff.session;
    const bytes = png(0x80);

    const uploaded = await upload(bytes);
    expect(uploaded.status).toBe(201);
    const body = (await uploaded.json()) as { key: string; url: string };
    expect(body.key).toMatch(new RegExp(`^${staff.account.id}/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.png$`));
    expect(body.url).toBe(`http://localhost:3000/images/${body.key}`);
    // The bytes are in this backend's storage.
    expect(await read((await backend.storage().get(body.key))!.body)).toEqual(bytes);

    const served = await serve(body.key);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("content-length")).toBe(String(bytes.length));
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    const etag = served.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f-]{36}"$/);
    expect((await serve(body.key, { "If-None-Match": etag })).status).toBe(304);

    // Another account's editor cannot delete it.
    const other = await createTestStaff(await getDb(), { roles: ["EDITOR"] });
    session.current = other.session;
    expect((await remove(body.key)).status).toBe(404);
    session.current = staff.session;

    // While a story shows it, it stays (409 naming the story); once it does not, it goes.
    const db0 = await getDb();
    const story = await insertStory(db0, staff.account.id, { headline: "Pier at dusk" });
    await db0.story.update({ where: { id: story.id }, data: { heroImageS3Key: body.key } });
    const used = await remove(body.key);
    expect(used.status).toBe(409);
    expect(JSON.stringify(await used.json())).toContain("Pier at dusk");
    expect((await serve(body.key)).status).toBe(200);
    await db0.story.update({ where: { id: story.id }, data: { heroImageS3Key: null } });

    expect((await remove(body.key)).status).toBe(204);
    expect((await serve(body.key)).status).toBe(404);
    expect(await backend.storage().get(body.key)).toBeNull();
    const db = await getDb();
    expect(await db.imageAsset.count({ where: { key: body.key } })).toBe(0);
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "image.delete" } })).toMatchObject({
      accountId: staff.account.id,
      targetType: "image",
    });
    expect((await remove(body.key)).status).toBe(404);
    const bad = await remove("../../etc/passwd");
    expect(bad.status).toBe(400);
  });

  it("gives IMAGE_PUBLIC_BASE_URL/<key> as the image URL when set, and still serves through /images", async () => {
    const base = backend.name === "s3" ? `${s3.endpoint}/${s3.bucket}` : "https://cdn.gazette.test/img";
    configure({ ...backend.env(), IMAGE_PUBLIC_BASE_URL: `${base}/` });
    session.current = (await createTestStaff(await getDb(), { roles: ["EDITOR"] })).session;
    const bytes = png(0xc0);
    const body = (await (await upload(bytes)).json()) as { key: string; url: string };
    expect(body.url).toBe(`${base}/${body.key}`);
    if (backend.name === "s3") {
      // Read straight from the bucket's public URL, with the headers the object was stored with.
      const direct = await fetch(body.url);
      expect(direct.status).toBe(200);
      expect(direct.headers.get("content-type")).toBe("image/png");
      expect(direct.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(Buffer.from(await direct.arrayBuffer())).toEqual(bytes);
    }
    expect((await serve(body.key)).status).toBe(200);
  });
});
