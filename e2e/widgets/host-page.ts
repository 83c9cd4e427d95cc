/**
 * What the widget specs share: a publisher's page on ANOTHER origin (a tiny static server on a
 * port of the spec's own), the loader's queue stub, a reader signed in with a publisher JWT
 * (accountUserLogin), and the frame's own checks (no sideways scroll inside it).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import type { Page } from "@playwright/test";
import { SignJWT } from "jose";

import { demoAccount, expect, test } from "../fixtures";

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const MASTHEAD = `http://localhost:${PORT}`;

/** The loader's queue stub, as a publisher's page includes it before the loader. */
export const LOADER_STUB =
  "window.talktype = window.talktype || function(f){ if (talktype.loaded) f(); else (talktype.q = talktype.q || []).push(arguments); };";

/** A story page with the comment widget in `#comments` (`attributes`: more data-masthead-* on its container). */
export function commentsPage(accountId: number, options: { heading?: string; attributes?: string } = {}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A story</title></head><body style="margin:0;padding:8px;font-family:sans-serif">
<h1>${options.heading ?? "A story with comments"}</h1>
<div id="comments" class="iframe-container" data-masthead-account-id="${accountId}" data-masthead-host="${MASTHEAD}" ${options.attributes ?? ""}></div>
<script>${LOADER_STUB}
window.__messages = [];
window.addEventListener("message", function (e) { if (e.data && e.data.action) window.__messages.push(e.data.action); });
talktype(function () { talktype.commentWidgetIframe(document.getElementById("comments")); });
</script>
<script src="${MASTHEAD}/widgets/v1/loader.js" async></script>
</body></html>`;
}

/**
 * A publisher's site on `<hostname>:<MASTHEAD's port + offset>` serving `pages` (path → HTML, or a
 * function of the request's URL). Each spec takes an offset of its own so specs can run at once.
 */
export async function publisherSite(
  offset: number,
  pages: Record<string, string | ((url: URL) => string)>,
  hostname = "localhost",
): Promise<{ origin: string; close: () => Promise<void> }> {
  const origin = `http://${hostname}:${PORT + offset}`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const page = pages[url.pathname];
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(typeof page === "string" ? page : page(url));
  });
  await new Promise<void>((resolve) => server.listen(PORT + offset, hostname, resolve));
  expect((server.address() as AddressInfo).port).toBe(PORT + offset);
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The two sizes the widget specs run at. */
export const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/**
 * A publisher's site (see publisherSite) with a comments page per viewport for this run:
 * `/<prefix>-<viewport>-<run>.html`, set up before the spec's tests and closed after them. The
 * answer's `origin` is read inside a test.
 */
export function commentPagesPerViewport(offset: number, prefix: string, run: string): { origin: string } {
  const holder = { origin: "" };
  let close: () => Promise<void> = () => Promise.resolve();
  test.beforeAll(async () => {
    const pages = new Map<string, string>();
    for (const v of VIEWPORTS) pages.set(`/${prefix}-${v.name}-${run}.html`, commentsPage(demoAccount().accountId));
    const site = await publisherSite(offset, Object.fromEntries(pages));
    holder.origin = site.origin;
    close = site.close;
  });
  test.afterAll(async () => {
    await close();
  });
  return holder;
}

/** A reader's publisher-signed JWT (HS256, 15 minutes). */
export function readerJwt(secret: string, id: string, name: string, email?: string): Promise<string> {
  return new SignJWT(email ? { id, name, email } : { id, name })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("15m")
    .sign(new TextEncoder().encode(secret));
}

/** Sign a reader in through the page's `talktype.accountUserLogin`. */
export async function signInReader(page: Page, jwt: string, name: string): Promise<void> {
  await page.evaluate(
    ([j, n]) => {
      const t = (window as unknown as { talktype: ((f: () => void) => void) & Record<string, (a?: unknown) => void> })
        .talktype;
      t(() => t.accountUserLogin!({ jwt: j, name: n }));
    },
    [jwt, name],
  );
}

/** The widget's own document does not scroll sideways. */
export async function expectNoSidewaysScrollInFrame(page: Page): Promise<void> {
  const inner = page.frames().find((f) => f.url().includes("/embed/"))!;
  const sizes = await inner.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
}
