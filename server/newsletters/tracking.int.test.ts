/**
 * The open pixel and the redirected links, through their route handlers, on PGlite and
 * PostgreSQL: the first open counted once, nothing counted without trackOpens or with a bad token
 * (the GIF all the same); a click counted and redirected, and refused (400, nothing written) for a
 * changed MAC, another account's token or a URL that is not http(s). A HEAD (what link scanners
 * send) gets what a GET would and counts nothing.
 */
import { describe, expect, it } from "vitest";

import { GET as clickGet } from "@/app/api/newsletters/click/[token]/route";
import { GET as openGet } from "@/app/api/newsletters/open/[token]/route";
import { getDb } from "@/server/db";
import { createNewsletterFixture, testNewsletterKey } from "@/server/testing/newsletters";
import { callGet, readJson, type RouteHandlerFn, type RouteParams } from "@/server/testing/route-calls";

import { clickUrl, openPixelUrl } from "./links";
import { signNewsletterToken } from "./tokens";

const BASE = "http://localhost";

function tokenOf(url: string) {
  return new URL(url).pathname.split("/").pop()!;
}

const open = (token: string) => callGet(openGet, `/api/newsletters/open/${token}`, { token });
const click = (url: string) => {
  const u = new URL(url);
  return callGet(clickGet, `${u.pathname}${u.search}`, { token: tokenOf(url) });
};

/** HEAD of `path`, as Next.js hands it to the GET handler of a route without its own HEAD. */
const head = (handler: RouteHandlerFn, path: string, params: RouteParams) =>
  handler(new Request(`http://localhost${path}`, { method: "HEAD", headers: { host: "localhost" } }), {
    params: Promise.resolve(params),
  });
const headOpen = (token: string) => head(openGet, `/api/newsletters/open/${token}`, { token });
const headClick = (url: string) => {
  const u = new URL(url);
  return head(clickGet, `${u.pathname}${u.search}`, { token: tokenOf(url) });
};

/** A response's headers but its request id and rate-limit count, which differ from call to call. */
function headersOf(res: Response): [string, string][] {
  return [...res.headers.entries()].filter(([name]) => name !== "x-request-id" && !name.startsWith("ratelimit-"));
}

async function expectGif(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/gif");
  expect(res.headers.get("cache-control")).toContain("no-store");
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(bytes.byteLength).toBe(42);
  expect(Buffer.from(bytes.slice(0, 6)).toString("latin1")).toBe("GIF89a");
}

/** The open pixel's URL of a delivery, signed with the test key. */
const pixelOf = (accountId: number, deliveryId: bigint) =>
  openPixelUrl({ baseUrl: BASE, key: testNewsletterKey(), accountId, deliveryId });
describe("the open pixel", () => {
  it("records the first open once and answers a GIF each time", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 2 });
    const key = testNewsletterKey();
    const url = openPixelUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId: deliveries[0]!.id });

    await expectGif(await open(tokenOf(url)));
    const first = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(first.openedAt).toBeInstanceOf(Date);

    await new Promise((r) => setTimeout(r, 5));
    await expectGif(await open(tokenOf(url)));
    const again = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(again.openedAt).toEqual(first.openedAt);
    const other = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[1]!.id } });
    expect(other.openedAt).toBeNull();
  });

  it("answers a HEAD as it would a GET and counts nothing", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const url = pixelOf(account.id, deliveries[0]!.id);
    const probed = await headOpen(tokenOf(url));
    await expectGif(probed.clone());
    const row = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(row.openedAt).toBeNull();

    const opened = await open(tokenOf(url));
    expect(headersOf(probed)).toEqual(headersOf(opened));
    const after = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(after.openedAt).toBeInstanceOf(Date);
    expect((await headOpen(tokenOf(url))).status).toBe(200);
    const later = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(later.openedAt).toEqual(after.openedAt);
  });

  it("counts one first open when many fetches race", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const url = pixelOf(account.id, deliveries[0]!.id);
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(tokenOf(url))));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const row = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(row.openedAt).toBeInstanceOf(Date);
  });

  it("counts nothing when the newsletter does not track opens", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1, trackOpens: false });
    const url = pixelOf(account.id, deliveries[0]!.id);
    await expectGif(await open(tokenOf(url)));
    const row = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(row.openedAt).toBeNull();
  });

  it("answers the GIF and changes nothing for a malformed, changed, unknown or other account's token", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const other = await createNewsletterFixture(db, { members: 1 });
    const key = testNewsletterKey();
    const good = tokenOf(openPixelUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId: deliveries[0]!.id }));
    const changed = `${good.slice(0, -1)}${good.endsWith("A") ? "B" : "A"}`;
    const foreign = signNewsletterToken(key, {
      accountId: other.account.id,
      purpose: "delivery",
      id: deliveries[0]!.id,
    });
    const unknown = signNewsletterToken(key, { accountId: account.id, purpose: "delivery", id: 987654321 });
    const wrongPurpose = signNewsletterToken(key, { accountId: account.id, purpose: "unsubscribe", id: 1 });
    for (const token of ["nonsense", changed, foreign, unknown, wrongPurpose, "delivery.99999999999999999999.x"]) {
      await expectGif(await open(token));
    }
    const rows = await db.newsletterDelivery.findMany({ where: { openedAt: { not: null } } });
    expect(rows).toEqual([]);
  });
});

describe("redirected links", () => {
  it("records the click (first clickedAt kept) and redirects to the link's URL", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const target = "https://news.example.com/2026/11/story?ref=mail&x=1#top";
    const url = clickUrl({
      baseUrl: BASE,
      key: testNewsletterKey(),
      accountId: account.id,
      deliveryId: deliveries[0]!.id,
      url: target,
    });
    const res = await click(url);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(target);
    const first = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(first.clickedAt).toBeInstanceOf(Date);

    await new Promise((r) => setTimeout(r, 5));
    expect((await click(url)).status).toBe(302);
    const again = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    expect(again.clickedAt).toEqual(first.clickedAt);
    const clicks = await db.newsletterClick.findMany({ where: { deliveryId: deliveries[0]!.id } });
    expect(clicks.map((c) => c.url)).toEqual([target, target]);
  });

  it("answers a HEAD as it would a GET, the same redirect or the same 400, and counts nothing", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const key = testNewsletterKey();
    const deliveryId = deliveries[0]!.id;
    const target = "https://news.example.com/2026/11/story?ref=mail#top";
    const url = clickUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId, url: target });

    const probed = await headClick(url);
    expect(probed.status).toBe(302);
    expect(probed.headers.get("location")).toBe(target);
    expect(await db.newsletterClick.count()).toBe(0);
    expect((await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).clickedAt).toBeNull();

    const clicked = await click(url);
    expect(clicked.status).toBe(302);
    expect(headersOf(probed)).toEqual(headersOf(clicked));
    expect(await db.newsletterClick.count()).toBe(1);

    const tampered = new URL(url);
    tampered.searchParams.set("h", "A".repeat(tampered.searchParams.get("h")!.length));
    const script = clickUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId, url: "javascript:alert(1)" });
    const unknown = clickUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId: 987654321n, url: target });
    for (const bad of [tampered.href, script, unknown]) {
      const refused = await headClick(bad);
      const got = await click(bad);
      expect(refused.status, bad).toBe(400);
      expect(refused.headers.get("location"), bad).toBeNull();
      expect(headersOf(refused), bad).toEqual(headersOf(got));
      expect(await refused.json(), bad).toEqual(await got.json());
    }
    expect(await db.newsletterClick.count()).toBe(1);
  });

  it("keeps one first click and every click's row when clicks race", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const url = clickUrl({
      baseUrl: BASE,
      key: testNewsletterKey(),
      accountId: account.id,
      deliveryId: deliveries[0]!.id,
      url: "https://news.example.com/b",
    });
    const answers = await Promise.all(Array.from({ length: 6 }, () => click(url)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(302));
    const clicks = await db.newsletterClick.findMany({ where: { deliveryId: deliveries[0]!.id } });
    expect(clicks).toHaveLength(6);
    const row = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveries[0]!.id } });
    const first = Math.min(...clicks.map((c) => c.clickedAt.getTime()));
    expect(row.clickedAt?.getTime()).toBe(first);
  });

  it("refuses a changed MAC, another URL, another account's token and a javascript: URL with 400", async () => {
    const db = await getDb();
    const { account, deliveries } = await createNewsletterFixture(db, { members: 1 });
    const other = await createNewsletterFixture(db, { members: 1 });
    const key = testNewsletterKey();
    const deliveryId = deliveries[0]!.id;
    const good = clickUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId, url: "https://news.example.com/a" });

    const tampered = new URL(good);
    const h = tampered.searchParams.get("h")!;
    tampered.searchParams.set("h", `${h.slice(0, -1)}${h.endsWith("A") ? "B" : "A"}`);
    const elsewhere = new URL(good);
    elsewhere.searchParams.set("u", "https://evil.example/phish");
    // Signed for the other account (its key and MAC), naming this account's delivery.
    const foreign = clickUrl({
      baseUrl: BASE,
      key,
      accountId: other.account.id,
      deliveryId,
      url: "https://news.example.com/a",
    });
    const script = clickUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId, url: "javascript:alert(1)" });
    const data = clickUrl({ baseUrl: BASE, key, accountId: account.id, deliveryId, url: "data:text/html,hi" });
    const noMac = new URL(good);
    noMac.searchParams.delete("h");

    for (const url of [tampered.href, elsewhere.href, foreign, script, data, noMac.href]) {
      const res = await click(url);
      expect(res.status, url).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await readJson<{ error: { code: string } }>(res)).toMatchObject({ error: { code: "BAD_REQUEST" } });
    }
    expect(await db.newsletterClick.count()).toBe(0);
    const row = await db.newsletterDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row.clickedAt).toBeNull();
  });
});
