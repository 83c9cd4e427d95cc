/**
 * E-mail notifications in the comment widget (docs/engagement.md "Notifications to readers"): on a
 * publisher's page of another origin, a signed-in reader opens "E-mail notifications", turns
 * replies to the daily digest, sees it saved, and finds it kept after a reload. At 1440 px and
 * 390 px, with axe-core in the frame (no serious or critical violation) and no sideways scrolling.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

import AxeBuilder from "@axe-core/playwright";
import type { FrameLocator, Page } from "@playwright/test";
import { SignJWT } from "jose";

import { demoAccount, expect, expectNoHorizontalPageScroll, test } from "../fixtures";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const HOST_PORT = PORT + 41;
const MASTHEAD = `http://localhost:${PORT}`;
const SITE = `http://localhost:${HOST_PORT}`;
const STUB =
  "window.talktype = window.talktype || function(f){ if (talktype.loaded) f(); else (talktype.q = talktype.q || []).push(arguments); };";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

function storyPage(accountId: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A story</title></head><body style="margin:0;padding:8px;font-family:sans-serif">
<h1>A story with comments</h1>
<div id="comments" class="iframe-container" data-masthead-account-id="${accountId}" data-masthead-host="${MASTHEAD}"></div>
<script>${STUB}
talktype(function () { talktype.commentWidgetIframe(document.getElementById("comments")); });
</script>
<script src="${MASTHEAD}/widgets/v1/loader.js" async></script>
</body></html>`;
}

function readerJwt(secret: string, id: string, name: string, email: string) {
  return new SignJWT({ id, name, email })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("15m")
    .sign(new TextEncoder().encode(secret));
}

async function signInReader(page: Page, jwt: string, name: string) {
  await page.evaluate(
    ([j, n]) => {
      const t = (window as unknown as { talktype: ((f: () => void) => void) & Record<string, (a?: unknown) => void> })
        .talktype;
      t(() => t.accountUserLogin!({ jwt: j, name: n }));
    },
    [jwt, name],
  );
}

async function openSettings(page: Page, jwt: string, name: string): Promise<FrameLocator> {
  const frame = page.frameLocator("#comments iframe");
  await expect(frame.getByRole("heading", { name: /comments?$/ })).toBeVisible();
  await signInReader(page, jwt, name);
  await expect(frame.getByText(`Signed in as ${name}`)).toBeVisible();
  await frame.getByText("E-mail notifications").click();
  await expect(frame.getByLabel("Replies to my comments")).toBeVisible();
  return frame;
}

async function expectNoSeriousAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = axe.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} – ${v.help}`));
  expect(serious).toEqual([]);
}

test.describe("e-mail notifications in the comment widget", () => {
  let server: http.Server;
  const run = Date.now().toString(36);
  const storyPath = `/notify-story-${run}.html`;

  test.beforeAll(async () => {
    const { accountId } = demoAccount();
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", SITE);
      if (url.pathname === storyPath) {
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(storyPage(accountId));
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(HOST_PORT, "localhost", resolve));
    expect((server.address() as AddressInfo).port).toBe(HOST_PORT);
  });

  test.afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  for (const viewport of VIEWPORTS) {
    test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });

      test("a reader turns replies to the daily digest and finds it kept after a reload", async ({ page }) => {
        const { jwtSecret } = demoAccount();
        const name = `Nia ${viewport.name} ${run}`;
        const jwt = await readerJwt(jwtSecret, `nia-${viewport.name}-${run}`, name, `nia-${run}@example.com`);

        await page.goto(SITE + storyPath);
        let frame = await openSettings(page, jwt, name);
        // A reader who never chose gets everything at once.
        await expect(frame.getByLabel("Replies to my comments")).toHaveValue("immediate");
        await expect(frame.getByLabel("Mentions of me")).toHaveValue("immediate");
        await expect(frame.getByLabel("Moderators' decisions on my comments")).toHaveValue("immediate");
        await expectNoHorizontalPageScroll(page, "the host page");
        await expectNoSeriousAxeViolations(page);

        await frame.getByLabel("Replies to my comments").selectOption({ label: "Daily digest" });
        await expect(frame.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

        await page.reload();
        frame = await openSettings(page, jwt, name);
        await expect(frame.getByLabel("Replies to my comments")).toHaveValue("digest");
        await expect(frame.getByLabel("Mentions of me")).toHaveValue("immediate");
        const inner = page.frames().find((f) => f.url().includes("/embed/"))!;
        const sizes = await inner.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
        await expectNoSeriousAxeViolations(page);
      });
    });
  }
});
