// The media library end to end on the server: uploads through POST /api/admin/images make sharp
// thumbnails in a temporary UPLOAD_DIR, served by GET /images/<key>.thumb.webp; media.* lists,
// finds uses, edits alt text and deletes only unused images, each account its own.
import fs from "node:fs/promises";
import path from "node:path";

import sharp from "sharp";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { AdminSession } from "@/server/auth/admin-session";
import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { testPng } from "@/server/testing/png";
import { createTestPublisher, insertImageAsset, textCards } from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";
import { withUploadDir } from "@/server/testing/upload-dir";

const session = vi.hoisted(() => ({ current: null as AdminSession | null }));
vi.mock("@/server/auth/next-auth", () => ({ getAdminSession: () => Promise.resolve(session.current) }));

const { POST } = await import("./route");
const { GET } = await import("../../../images/[...key]/route");

const uploads = withUploadDir("masthead-media-", { UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) });

beforeEach(async () => {
  forgetPublisherCache();
  session.current = null;
});

async function upload(bytes: Uint8Array, name = "photo.png", type = "image/png") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await POST(new Request("http://localhost/api/admin/images", { method: "POST", body: form }), {
    params: Promise.resolve({}),
  });
  return { status: response.status, body: (await response.json()) as { key: string; width: number | null } };
}

const serve = (key: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://localhost/images/${key}`, { headers }), { params: Promise.resolve({ key: key.split("/") }) });

/** A publisher and an editor on it, signed in for uploads. */
async function editorOf(name = "Eddie Editor") {
  const db = await getDb();
  const account = await createTestPublisher(db, { siteUrl: "https://news.example.com" });
  const staff = await createTestStaff(db, { account: account.id, roles: ["EDITOR"], name });
  session.current = staff.session;
  return { db, account, user: staff.user, api: staff.caller };
}

/** A real JPEG, width × height, with an EXIF orientation (6: turn 90° clockwise) as a camera writes it. */
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();

describe("thumbnails on upload", () => {
  it("makes a 320 px wide WebP, upright and without metadata, next to the original, served like it", async () => {
    const { db } = await editorOf();
    const { status, body } = await upload(await jpeg(800, 400), "red.jpg", "image/jpeg");
    expect(status).toBe(201);
    const asset = await db.imageAsset.findUniqueOrThrow({ where: { key: body.key } });
    expect(asset.thumbKey).toBe(`${body.key}.thumb.webp`);
    expect(asset.fileName).toBe("red.jpg");
    const file = await fs.readFile(path.join(uploads.dir, ...asset.thumbKey!.split("/")));
    expect(asset.thumbBytes).toBe(file.byteLength);
    const meta = await sharp(file).metadata();
    expect(meta.format).toBe("webp");
    // 800×400 turned by its EXIF orientation is 400×800: 320 wide, 640 high.
    expect([meta.width, meta.height]).toEqual([320, 640]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();

    const served = await serve(asset.thumbKey!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    const etag = served.headers.get("etag")!;
    expect(etag).not.toBe((await serve(body.key)).headers.get("etag"));
    expect((await serve(asset.thumbKey!, { "if-none-match": etag })).status).toBe(304);
    // A thumbnail key no recorded image has is not served, even with a file under it.
    const stray = `${asset.accountId}/2026/01/00000000-0000-4000-8000-000000000000.png.thumb.webp`;
    expect((await serve(stray)).status).toBe(404);
  });

  it("never enlarges a small image", async () => {
    const { db } = await editorOf();
    const { body } = await upload(testPng(40, 30));
    const asset = await db.imageAsset.findUniqueOrThrow({ where: { key: body.key } });
    const meta = await sharp(path.join(uploads.dir, ...asset.thumbKey!.split("/"))).metadata();
    expect([meta.width, meta.height]).toEqual([40, 30]);
  });

  it("keeps a corrupt image's upload without a thumbnail, and the library shows the original", async () => {
    const { db, api } = await editorOf();
    const broken = Buffer.from(testPng(64, 64));
    // Keep the header (so it is still measured as a 64×64 PNG), spoil the compressed pixels.
    broken.fill(0x41, 45, broken.length - 12);
    const { status, body } = await upload(broken, "broken.png");
    expect(status).toBe(201);
    const asset = await db.imageAsset.findUniqueOrThrow({ where: { key: body.key } });
    expect(asset.thumbKey).toBeNull();
    expect(asset.thumbFailedAt).not.toBeNull();
    expect((await serve(body.key)).status).toBe(200);
    const page = await api.media.list({});
    expect(page.items[0]).toMatchObject({ key: body.key, hasThumbnail: false });
    expect(page.items[0]!.thumbUrl).toBe(page.items[0]!.url);
  });

  it("does not decode an image of more pixels than the limit (a decompression bomb): kept, no thumbnail", async () => {
    const { db } = await editorOf();
    // A real PNG's header saying 20,000 × 20,000 pixels (400 megapixels) over a few bytes of data.
    const bomb = Buffer.from(testPng(1, 1));
    bomb.writeUInt32BE(20_000, 16);
    bomb.writeUInt32BE(20_000, 20);
    const { status, body } = await upload(bomb, "bomb.png");
    expect(status).toBe(201);
    expect(body.width).toBe(20_000);
    const asset = await db.imageAsset.findUniqueOrThrow({ where: { key: body.key } });
    expect(asset.thumbKey).toBeNull();
    expect(asset.thumbFailedAt).not.toBeNull();
  });

  it("makes missing thumbnails lazily when the library lists uploads made before it", async () => {
    const { db, account, api } = await editorOf();
    const { body } = await upload(testPng(600, 300));
    const asset = await db.imageAsset.findUniqueOrThrow({ where: { key: body.key } });
    // As an upload from before thumbnails: no thumbnail recorded or stored.
    await fs.rm(path.join(uploads.dir, ...asset.thumbKey!.split("/")));
    await db.imageAsset.update({ where: { id: asset.id }, data: { thumbKey: null, thumbBytes: null } });
    const missingBytes = await insertImageAsset(db, account.id); // a row whose bytes are gone
    const page = await api.media.list({});
    expect(page.items.find((item) => item.key === body.key)).toMatchObject({ hasThumbnail: true });
    expect(page.items.find((item) => item.key === missingBytes)).toMatchObject({ hasThumbnail: false });
    const thumb = await sharp(path.join(uploads.dir, ...`${body.key}.thumb.webp`.split("/"))).metadata();
    expect(thumb.width).toBe(320);
  });
});

describe("media.*", () => {
  it("lists staff uploads with uses; Unused leaves out what a story names; delete refused while used", async () => {
    const { db, account, api, user } = await editorOf("Ada Editor");
    const hero = (await upload(testPng(50, 40, 0x10), "hero.png")).body.key;
    const inline = (await upload(testPng(50, 40, 0x20), "inline.png")).body.key;
    const spare = (await upload(testPng(50, 40, 0x30), "spare.png")).body.key;
    // A reader's upload (comment image) is not in the library.
    const member = await db.member.create({
      data: { accountId: account.id, name: "Reader", email: "r@x.test", passwordHash: "unused" },
    });
    const readerKey = await insertImageAsset(db, account.id);
    await db.imageAsset.update({ where: { key: readerKey }, data: { uploadedByMemberId: member.id } });

    const cards = textCards("Words.");
    cards[0]!["story-elements"].push({
      id: crypto.randomUUID(),
      type: "image",
      subtype: null,
      "image-s3-key": inline,
      metadata: {},
    });
    const story = await api.stories.create({
      headline: "Tram line opens",
      cards,
      access: "public",
      heroImage: { s3Key: hero },
    });

    const all = await api.media.list({});
    expect(all.total).toBe(3);
    expect(all.items.map((item) => item.key)).toEqual([spare, inline, hero]);
    const heroItem = all.items.find((item) => item.key === hero)!;
    expect(heroItem.usedIn).toEqual([
      {
        kind: "story",
        id: story.story.id,
        label: "Tram line opens",
        href: `/admin/content/stories/${story.story.id}`,
        field: "heroImage",
      },
    ]);
    expect(heroItem).toMatchObject({ uploadedBy: "Ada Editor", fileName: "hero.png", width: 50, height: 40 });
    expect(all.items.find((item) => item.key === inline)!.usedIn[0]).toMatchObject({
      kind: "story",
      field: "cards.0.story-elements.1.image-s3-key",
    });

    const unused = await api.media.list({ filter: "unused" });
    expect(unused.items.map((item) => item.key)).toEqual([spare]);
    expect(unused.total).toBe(1);

    expect((await api.media.list({ search: "INLINE" })).items.map((item) => item.key)).toEqual([inline]);
    const paged = await api.media.list({ limit: 2, offset: 2 });
    expect(paged).toMatchObject({ total: 3, offset: 2, limit: 2 });
    expect(paged.items.map((item) => item.key)).toEqual([hero]);

    // An author's avatar counts as a use too.
    await db.author.create({ data: { accountId: account.id, name: "Ann Author", slug: "ann", avatarS3Key: spare } });
    expect((await api.media.get({ key: spare })).usedIn).toMatchObject([{ kind: "author", label: "Ann Author" }]);
    expect(await trpcCodeOf(api.media.delete({ key: spare }))).toBe("CONFLICT");
    expect(await trpcCodeOf(api.media.delete({ key: hero }))).toBe("CONFLICT");
    expect(await fsExists(path.join(uploads.dir, ...hero.split("/")))).toBe(true);

    // Taken out of the story, the hero is unused and can go: row, bytes, thumbnail, audited.
    await api.stories.update({ id: story.story.id, version: story.story.version, heroImage: null });
    expect((await api.media.list({ filter: "unused" })).items.map((item) => item.key)).toEqual([hero]);
    await api.media.delete({ key: hero });
    expect(await db.imageAsset.findUnique({ where: { key: hero } })).toBeNull();
    expect(await fsExists(path.join(uploads.dir, ...hero.split("/")))).toBe(false);
    expect(await fsExists(path.join(uploads.dir, ...`${hero}.thumb.webp`.split("/")))).toBe(false);
    expect((await serve(`${hero}.thumb.webp`)).status).toBe(404);
    const audit = await db.auditLog.findFirst({ where: { action: "image.delete", actorId: user.id } });
    expect(audit?.metadata).toMatchObject({ key: hero });
    // A reader's upload is not the library's to delete.
    expect(await trpcCodeOf(api.media.delete({ key: readerKey }))).toBe("NOT_FOUND");
  });

  it("keeps alt text as plain text, within 500 characters, audited; bad input changes nothing", async () => {
    const { db, api } = await editorOf();
    const key = (await upload(testPng(20, 20))).body.key;
    const saved = await api.media.updateAlt({ key, alt: "  A <b>red</b>\ntram  " });
    expect(saved.alt).toBe("A red tram");
    expect((await api.media.list({ search: "red tram" })).items.map((item) => item.key)).toEqual([key]);
    expect(await trpcCodeOf(api.media.updateAlt({ key, alt: "x".repeat(501) }))).toBe("BAD_REQUEST");
    expect(await trpcCodeOf(api.media.updateAlt({ key: "../../etc/passwd", alt: "x" }))).toBe("BAD_REQUEST");
    expect((await db.imageAsset.findUniqueOrThrow({ where: { key } })).alt).toBe("A red tram");
    expect(await db.auditLog.count({ where: { action: "image.alt" } })).toBe(1);
  });

  it("keeps each account to its own images", async () => {
    const { api: first } = await editorOf();
    const key = (await upload(testPng(20, 20))).body.key;
    const { api: other } = await editorOf();
    expect((await other.media.list({})).total).toBe(0);
    expect(await trpcCodeOf(other.media.get({ key }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(other.media.updateAlt({ key, alt: "mine now" }))).toBe("NOT_FOUND");
    expect(await trpcCodeOf(other.media.delete({ key }))).toBe("NOT_FOUND");
    expect((await first.media.get({ key })).alt).toBe("");
  });

  it("is for editors: a signed-in user without the role is refused", async () => {
    const db = await getDb();
    const { caller } = await createTestStaff(db, { roles: ["MODERATOR"] });
    expect(await trpcCodeOf(caller.media.list({}))).toBe("FORBIDDEN");
  });
});

async function fsExists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
