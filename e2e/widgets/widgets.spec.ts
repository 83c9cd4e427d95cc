/**
 * The widgets on a publisher's page of ANOTHER origin (a tiny static server on the next port):
 * the page includes the loader with the queue stub; reader A signs in with a publisher JWT
 * (accountUserLogin), comments, mentions reader B through the picker, replies, reacts, edits and
 * hides; reader B sees all of it; the counts endpoint agrees with the frame; a guest solves the
 * captcha; the same thread through data-metype-* attributes and the old loader path; a 360 px
 * phone shows it without sideways scrolling; the frame sends its strict CSP.
 */
import type { Browser, FrameLocator, Page } from "@playwright/test";

import { demoAccount, expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcCall } from "../fixtures";
import {
  commentsPage,
  expectNoSidewaysScrollInFrame,
  MASTHEAD,
  publisherSite,
  readerJwt,
  signInReader,
  LOADER_STUB as STUB,
} from "./host-page";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const SITE = `http://localhost:${PORT + 1}`;

/** As a page written for Metype: data-metype-* attributes, the old loader path, the story's URL given. */
function metypePage(accountId: number, pageUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Metype page</title></head><body style="margin:0;padding:8px">
<div id="metype-container-1" class="iframe-container" data-metype-account-id="${accountId}" data-metype-host="${MASTHEAD}" data-metype-page-url="${pageUrl}"></div>
<script>${STUB}
window.__messages = [];
window.addEventListener("message", function (e) { if (e.data && e.data.action) window.__messages.push(e.data.action); });
</script>
<script src="${MASTHEAD}/quintype-metype/assets/metype.js"></script>
<script>talktype(function () { talktype.commentWidgetIframe(document.getElementById("metype-container-1")); });</script>
</body></html>`;
}

/** Feed, contributions and the login frame on one page. */
function morePage(accountId: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>More widgets</title></head><body>
<div id="ugc" data-masthead-account-id="${accountId}" data-masthead-host="${MASTHEAD}" data-masthead-topic-type="tag" data-masthead-topic-value="trains"></div>
<div id="feed-metype-container" class="feed-iframe-container" data-metype-account-id="${accountId}" data-metype-host="${MASTHEAD}" data-metype-publisher="The Daily">
  <button type="button" id="metype-clickthru" aria-expanded="false">Activity</button>
</div>
<div id="login"></div>
<script>${STUB}</script>
<script src="${MASTHEAD}/widgets/v1/loader.js" async></script>
<script>talktype(function () {
  talktype.contributionWidgetIframe(document.getElementById("ugc"));
  talktype.feedWidgetIframe(document.getElementById("feed-metype-container"));
});</script>
</body></html>`;
}

/** The page-reactions widget as Metype pages embed it, for the story at `pageUrl`. */
function reactionsPage(accountId: number, pageUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reactions</title></head><body>
<div id="metype-page-reactions-container-1" data-metype-account-id="${accountId}" data-metype-host="${MASTHEAD}" data-metype-page-url="${pageUrl}"></div>
<script>${STUB}
window.__messages = [];
window.addEventListener("message", function (e) { if (e.data && e.data.action) window.__messages.push(e.data.action); });
</script>
<script src="${MASTHEAD}/quintype-metype/assets/metype.js"></script>
<script>talktype(function () { talktype.pageReactionsIframe(document.getElementById("metype-page-reactions-container-1")); });</script>
</body></html>`;
}

function frameOf(page: Page, container = "#comments"): FrameLocator {
  return page.frameLocator(`${container} iframe`);
}

function commentWith(frame: FrameLocator, text: string) {
  return frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(text)}))`);
}

async function post(frame: FrameLocator, text: string) {
  const box = frame.getByRole("textbox", { name: "Write a comment" });
  await box.fill(text);
  await frame.locator("form.composer").first().getByRole("button", { name: "Post" }).click();
  await expect(commentWith(frame, text)).toBeVisible();
}

async function newPage(browser: Browser, width = 1100): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  return context.newPage();
}

// eslint-disable-next-line max-lines-per-function -- one viewport's walk: its steps run in order in one browser
test.describe("widgets on a publisher's page", () => {
  let site: Awaited<ReturnType<typeof publisherSite>>;
  const run = Date.now().toString(36);
  const storyPath = `/story-${run}.html`;

  test.beforeAll(async () => {
    const { accountId } = demoAccount();
    site = await publisherSite(1, {
      [storyPath]: commentsPage(accountId, {
        heading: "A story on another origin",
        attributes: 'data-masthead-primary-color="#aa3300"',
      }),
      "/more.html": morePage(accountId),
      "/cb": "<!doctype html><title>Signed in</title><p>Back on the publisher",
      "/reactions.html": reactionsPage(accountId, SITE + storyPath),
      "/metype.html": metypePage(accountId, SITE + storyPath),
    });
    expect(site.origin).toBe(SITE);
  });

  test.afterAll(async () => {
    await site.close();
  });

  test("readers comment, mention, reply, react, edit and hide; others see it; guests solve the captcha", async ({
    page,
    browser,
    signIn,
    users,
  }) => {
    test.setTimeout(240_000);
    const { accountId, jwtSecret } = demoAccount();
    // The publication takes guests, and a new reader's links are not held (none are sent anyway).
    await signIn(users.owner);
    await trpcCall(page.request, "moderation.updateSettings", { guestCommentsAllowed: true });

    const ada = { name: `Ada ${run}`, jwt: await readerJwt(jwtSecret, `ada-${run}`, `Ada ${run}`) };
    const ben = { name: `Ben ${run}`, jwt: await readerJwt(jwtSecret, `ben-${run}`, `Ben ${run}`) };

    // ── Reader B writes first ─────────────────────────────────────────────────────────────────
    const pageB = await newPage(browser);
    await pageB.goto(SITE + storyPath);
    const frameB = frameOf(pageB);
    await expect(frameB.getByRole("heading", { name: /comments?$/ })).toBeVisible();
    await signInReader(pageB, ben.jwt, ben.name);
    await expect(frameB.getByText(`Signed in as ${ben.name}`)).toBeVisible();
    await post(frameB, `Ben's first thought ${run}`);

    // ── Reader A ──────────────────────────────────────────────────────────────────────────────
    await page.goto(SITE + storyPath);
    const frame = frameOf(page);
    await expect(commentWith(frame, `Ben's first thought ${run}`)).toBeVisible();
    // The JWT travels by postMessage: never in the frame's address.
    await signInReader(page, ada.jwt, ada.name);
    await expect(frame.getByText(`Signed in as ${ada.name}`)).toBeVisible();
    expect(await page.locator("#comments iframe").getAttribute("src")).not.toContain(ada.jwt);

    // A comment with a mention chosen in the picker.
    const box = frame.getByRole("textbox", { name: "Write a comment" });
    await box.click();
    await box.pressSequentially(`Agreed with @Ben`);
    const picker = frame.getByRole("listbox", { name: "Readers to mention" });
    await expect(picker.getByRole("option", { name: `@${ben.name}` })).toBeVisible();
    await box.press("Enter");
    await box.pressSequentially(`about the buses ${run}`);
    await frame.locator("form.composer").first().getByRole("button", { name: "Post" }).click();
    const adaComment = commentWith(frame, `about the buses ${run}`);
    await expect(adaComment.locator(".mention")).toHaveText(`@${ben.name}`);

    // A reply to Ben (the reply box starts with the mention of whom it answers).
    const benComment = commentWith(frame, `Ben's first thought ${run}`);
    await benComment.getByRole("button", { name: "Reply", exact: true }).first().click();
    const replyBox = frame.getByRole("textbox", { name: `Write a reply to ${ben.name}` });
    await expect(replyBox).toHaveValue(`@${ben.name} `);
    // axe with the reply box (and its mention picker's wiring) open.
    expect(await seriousViolations(page)).toEqual([]);
    await replyBox.pressSequentially(`the night route matters ${run}`);
    await benComment.locator("form.composer").getByRole("button", { name: "Reply" }).click();
    const reply = commentWith(frame, `the night route matters ${run}`);
    await expect(reply).toBeVisible();
    await expect(reply.locator(".mention")).toHaveText(`@${ben.name}`);

    // A reaction, while a new comment is half written: the thread re-renders and keeps the draft.
    await box.fill(`half a thought ${run}`);
    await benComment.locator(":scope > .actions").getByRole("button", { name: "Like, 0" }).click();
    await expect(benComment.locator(":scope > .actions").getByRole("button", { name: "Like, 1" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(box).toHaveValue(`half a thought ${run}`);

    // An edit.
    await adaComment.getByRole("button", { name: "Edit" }).click();
    const editBox = frame.getByRole("textbox", { name: "Edit" });
    await expect(editBox).toHaveValue(`Agreed with @${ben.name} about the buses ${run}`);
    await editBox.fill(`Agreed with @${ben.name} about the night buses ${run}`);
    await frame.getByRole("button", { name: "Save" }).click();
    const edited = commentWith(frame, `about the night buses ${run}`);
    await expect(edited.locator(".mention")).toHaveText(`@${ben.name}`);
    await expect(edited.getByText("edited")).toBeVisible();

    // Hiding one.
    await post(frame, `A comment I regret ${run}`);
    await commentWith(frame, `A comment I regret ${run}`).getByRole("button", { name: "Hide" }).click();
    await expect(commentWith(frame, `A comment I regret ${run}`)).toHaveCount(0);

    // The frame grew to its content (resize messages, checked by origin in the loader).
    expect(await page.locator("#comments iframe").evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThan(
      300,
    );

    // ── Reader B sees it all ──────────────────────────────────────────────────────────────────
    await pageB.reload();
    await signInReader(pageB, ben.jwt, ben.name);
    await expect(frameB.getByText(`Signed in as ${ben.name}`)).toBeVisible();
    const seen = commentWith(frameB, `about the night buses ${run}`);
    await expect(seen).toBeVisible();
    await expect(seen.locator(".name").first()).toHaveText(ada.name);
    await expect(commentWith(frameB, `the night route matters ${run}`)).toBeVisible();
    await expect(commentWith(frameB, `A comment I regret ${run}`)).toHaveCount(0);
    await expect(
      commentWith(frameB, `Ben's first thought ${run}`).locator(":scope > .actions").getByRole("button", {
        name: "Like, 1",
      }),
    ).toBeVisible();
    // B may report A's comment; B's own has no report button.
    await seen.getByRole("button", { name: "Report" }).click();
    await frameB.getByRole("button", { name: "Send report" }).click();
    await expect(frameB.getByText("Thank you: the moderators will look at it.")).toBeVisible();

    // ── The counts endpoint agrees with the frame ─────────────────────────────────────────────
    const heading = await frameB.getByRole("heading", { name: /comments?$/ }).textContent();
    const shown = Number(/(\d+)/.exec(heading ?? "")?.[1]);
    const id = Buffer.from(encodeURIComponent(SITE + storyPath)).toString("base64url");
    const counts = (await (
      await page.request.get(`${MASTHEAD}/api/v1/accounts/${accountId}/pages?page_ids=${id}`)
    ).json()) as { comments_count: number }[];
    expect(counts[0]!.comments_count).toBe(shown);
    expect(shown).toBe(3); // Ben's, Ada's (edited) and Ada's reply; the hidden one is not counted

    // ── A guest solves the captcha ────────────────────────────────────────────────────────────
    const guest = await newPage(browser);
    await guest.goto(SITE + storyPath);
    const guestFrame = frameOf(guest);
    await expect(guestFrame.getByText("You are commenting as a guest.")).toBeVisible();
    await guestFrame.getByRole("textbox", { name: "Your name (optional)" }).fill("Gus");
    await guestFrame
      .getByRole("textbox", { name: "Write a comment" })
      .fill(`A guest's view ${run} <img src=x onerror="parent.__xss=1"><script>parent.__xss=2</script>`);
    await guestFrame.getByRole("button", { name: "Post" }).click();
    const guestComment = commentWith(guestFrame, `A guest's view ${run}`);
    await expect(guestComment).toBeVisible({ timeout: 60_000 });
    await expect(guestComment.locator(".badge")).toHaveText("Guest");
    // What a reader writes is text: no element comes of it, nothing runs.
    await expect(guestComment.locator(":scope > .body")).toContainText('<img src=x onerror="parent.__xss=1">');
    await expect(guestComment.locator(":scope > .body img, :scope > .body script")).toHaveCount(0);
    expect(await guest.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // A guest cannot react: the button asks the page to log the reader in (both message names).
    await commentWith(guestFrame, `Ben's first thought ${run}`)
      .locator(":scope > .actions")
      .getByRole("button", { name: "Like, 1" })
      .click();
    await expect
      .poll(() => guest.evaluate(() => (window as unknown as { __messages: string[] }).__messages))
      .toEqual(["svc_login", "masthead_login"]);

    // ── The same thread on a page written for Metype ──────────────────────────────────────────
    const metype = await newPage(browser);
    await metype.goto(SITE + "/metype.html");
    const metypeFrame = frameOf(metype, "#metype-container-1");
    await expect(commentWith(metypeFrame, `about the night buses ${run}`)).toBeVisible();
    await expect(metypeFrame.getByRole("heading", { name: "4 comments" })).toBeVisible();
    // This page sets no colours: axe in the default ones.
    expect(await seriousViolations(metype)).toEqual([]);
    expect(await metype.evaluate(() => (window as unknown as { talktype: { loaded: boolean } }).talktype.loaded)).toBe(
      true,
    );

    // ── A 360 px phone ────────────────────────────────────────────────────────────────────────
    const phone = await newPage(browser, 360);
    await phone.goto(SITE + storyPath);
    const phoneFrame = frameOf(phone);
    await expect(commentWith(phoneFrame, `about the night buses ${run}`)).toBeVisible();
    await expectNoHorizontalPageScroll(phone, "the host page");
    await expectNoSidewaysScrollInFrame(phone);
    // axe in the frame, at 360 px: no serious or critical violation.
    expect(await seriousViolations(phone)).toEqual([]);

    for (const p of [pageB, guest, metype, phone]) await p.context().close();
  });

  test("reactions on the page itself: a reader gives and takes back one, another sees the count, a guest is asked to sign in", async ({
    browser,
  }) => {
    const { jwtSecret } = demoAccount();
    const container = "#metype-page-reactions-container-1";
    const ada = await newPage(browser, 390);
    await ada.goto(SITE + "/reactions.html");
    await signInReader(ada, await readerJwt(jwtSecret, `ada-r-${run}`, `Ada ${run}`), `Ada ${run}`);
    const frame = frameOf(ada, container);
    const group = frame.getByRole("group", { name: "Reactions to this page" });
    // Every reaction button is a target of at least 24 × 24 px (WCAG 2.5.8).
    const reactionButtons = group.getByRole("button");
    await expect(reactionButtons.first()).toBeVisible();
    // Measured again until steady: the frame draws the group anew once the reader is known.
    await expect(async () => {
      const sizes = await reactionButtons.evaluateAll((els) =>
        els.map((el) => ({ width: el.getBoundingClientRect().width, height: el.getBoundingClientRect().height })),
      );
      expect(sizes.length).toBeGreaterThan(0);
      for (const { width, height } of sizes) {
        expect(height, "a reaction button's height").toBeGreaterThanOrEqual(24);
        expect(width, "a reaction button's width").toBeGreaterThanOrEqual(24);
      }
    }).toPass({ timeout: 10_000 });
    await group.getByRole("button", { name: "Love, 0" }).click();
    await expect(group.getByRole("button", { name: "Love, 1" })).toHaveAttribute("aria-pressed", "true");
    await expect(group.getByRole("button", { name: "Love, 1" })).toBeFocused();
    await group.getByRole("button", { name: "Wow, 0" }).click();
    await group.getByRole("button", { name: "Wow, 1" }).click();
    await expect(group.getByRole("button", { name: "Wow, 0" })).toHaveAttribute("aria-pressed", "false");
    await expectNoHorizontalPageScroll(ada);

    // Another reader sees Ada's reaction counted, not given by them; the API says the same.
    const ben = await newPage(browser);
    await ben.goto(SITE + "/reactions.html");
    await signInReader(ben, await readerJwt(jwtSecret, `ben-r-${run}`, `Ben ${run}`), `Ben ${run}`);
    const benGroup = frameOf(ben, container).getByRole("group", { name: "Reactions to this page" });
    await expect(benGroup.getByRole("button", { name: "Love, 1" })).toHaveAttribute("aria-pressed", "false");
    const b64 = Buffer.from(encodeURIComponent(SITE + storyPath)).toString("base64");
    const api = await ben.request.get(`${MASTHEAD}/api/v1/accounts/${demoAccount().accountId}/pages/${b64}/reactions`);
    expect(await api.json()).toMatchObject({ reactions: { love: 1 }, my_reactions: [] });

    // A reader who has not signed in is asked to: the page gets the login message.
    const guest = await newPage(browser);
    await guest.goto(SITE + "/reactions.html");
    await frameOf(guest, container).getByRole("button", { name: "Love, 1" }).click();
    await expect
      .poll(() => guest.evaluate(() => (window as unknown as { __messages: string[] }).__messages))
      .toEqual(["svc_login", "masthead_login"]);
    for (const p of [ada, ben, guest]) await p.context().close();
  });

  test("contributions with updateUGCTopic, the feed toggled and slid, and the login frame", async ({
    page,
    browser,
    signIn,
    users,
  }) => {
    test.setTimeout(180_000);
    const { jwtSecret } = demoAccount();
    await signIn(users.owner);
    const created = await trpcCall<{ client: { clientId: string } }>(page.request, "oauthClients.create", {
      name: `Widget login ${run}`,
      redirectUris: [`${SITE}/cb`],
    });

    const reader = await newPage(browser);
    await reader.goto(SITE + "/more.html");
    const name = `Uma ${run}`;
    await signInReader(reader, await readerJwt(jwtSecret, `uma-${run}`, name), name);

    // Contribution: the topic from the attributes, then changed by updateUGCTopic while the reader
    // types (the re-render keeps what they typed).
    const ugc = reader.frameLocator("#ugc iframe");
    await expect(ugc.getByText("Topic: tag: trains")).toBeVisible();
    const ugcText = ugc.getByRole("textbox", { name: "What would you like to tell us?" });
    await ugcText.fill(`The 3 am bus was full ${run}`);
    await reader.evaluate(() => {
      const t = (window as unknown as { talktype: Record<string, (a?: unknown) => void> }).talktype;
      t.updateUGCTopic!({ topicType: "tag", topicValue: "night-buses" });
    });
    await expect(ugc.getByText("Topic: tag: night-buses")).toBeVisible();
    await expect(ugcText).toHaveValue(`The 3 am bus was full ${run}`);
    await ugc.getByRole("button", { name: "Send" }).click();
    await expect(ugc.getByText("Thank you: the newsroom will review it.")).toBeVisible();
    await expect(ugc.getByRole("list", { name: "Your contributions" })).toContainText("waiting for review");

    // The feed: closed, opened by toggleButton (the page's button), closed by its own close button.
    const feedFrame = reader.locator("#feed-metype-container iframe");
    await expect(feedFrame).toBeHidden();
    await reader.evaluate(() => {
      const t = (window as unknown as { talktype: Record<string, () => void> }).talktype;
      t.toggleButton!();
    });
    await expect(feedFrame).toBeVisible();
    await expect(reader.locator("#metype-clickthru")).toHaveAttribute("aria-expanded", "true");
    const feed = reader.frameLocator("#feed-metype-container iframe");
    await expect(feed.getByRole("tab", { name: /For you/ })).toBeVisible();
    await expect(feed.locator(".feed-item").first()).toBeVisible();
    // A tab chosen by keyboard reloads the list under the header: the tab keeps the focus, and the
    // header's Close button is the same element (a refresh landing between the press and the
    // release of a click on it used to swallow the click).
    const close = feed.getByRole("button", { name: "Close" });
    await close.evaluate((el) => el.setAttribute("data-test-kept", "yes"));
    const forYou = feed.getByRole("tab", { name: /For you/ });
    await forYou.focus();
    await reader.keyboard.press("Enter");
    await expect(forYou).toHaveAttribute("aria-selected", "true");
    await expect(forYou).toBeFocused();
    await expect(feed.locator('button[data-test-kept="yes"]')).toHaveCount(1);
    await close.click();
    await expect(feedFrame).toBeHidden();
    await reader.evaluate(() => {
      const t = (window as unknown as { talktype: Record<string, () => void> }).talktype;
      t.toggleButton!();
      t.slideButton!();
    });
    await expect(feedFrame).toBeHidden();

    // The login frame: the authorize URL, the member sign-up, back on the redirect URI with a code.
    const authorize = new URL(`${MASTHEAD}/oauth/authorize`);
    authorize.searchParams.set("client_id", created.client.clientId);
    authorize.searchParams.set("redirect_uri", `${SITE}/cb`);
    authorize.searchParams.set("response_type", "code");
    authorize.searchParams.set("state", run);
    await reader.evaluate((source) => {
      const t = (window as unknown as { talktype: Record<string, (...a: unknown[]) => void> }).talktype;
      t.formLoginIframe!(document.getElementById("login"), source, (detail: unknown) => {
        (window as unknown as { __login: unknown }).__login = detail;
      });
    }, authorize.href);
    const login = reader.frameLocator("#login iframe");
    await expect(login.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
    await login.getByRole("link", { name: "Create an account" }).click();
    await login.getByLabel("Name").fill(name);
    await login.getByLabel("E-mail").fill(`uma-${run}@example.test`);
    await login.getByLabel("Password").fill("correct horse battery");
    await login.getByRole("button", { name: "Create account" }).click();
    await expect
      .poll(() => reader.evaluate(() => (window as unknown as { __login?: { code?: string } }).__login?.code ?? null))
      .toMatch(/.{20,}/);
    await reader.context().close();
  });

  test("the frame sends a strict CSP whose frame-ancestors are the publication's hosts", async ({ request }) => {
    const { accountId } = demoAccount();
    const res = await request.get(
      `/embed/${accountId}/comments?page_url=${encodeURIComponent(SITE + storyPath)}&primary_color=${encodeURIComponent("red;}body{x")}`,
    );
    expect(res.status()).toBe(200);
    const csp = res.headers()["content-security-policy"]!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toMatch(/frame-ancestors 'self' localhost:\*/);
    const html = await res.text();
    expect(html).not.toContain("body{x"); // a colour that is not one is dropped
    const bad = await request.get(`/embed/${accountId}/comments?page_url=javascript:alert(1)`);
    expect(bad.status()).toBe(400);
    const loader = await request.get("/quintype-metype/assets/application.js");
    expect(loader.status()).toBe(200);
    expect(loader.headers()["content-type"]).toContain("javascript");
  });

  test("the demo article embeds the widgets", async ({ page }) => {
    await page.goto("/demo/article");
    await expect(page.frameLocator("#comments iframe").getByRole("heading", { name: /comments?$/ })).toBeVisible();
    await page.getByRole("button", { name: "Sign in as Ada" }).click();
    await expect(page.frameLocator("#comments iframe").getByText("Signed in as Ada Reader")).toBeVisible();
    await page.getByRole("button", { name: "Activity" }).click();
    await expect(page.frameLocator("#feed-metype-container iframe").getByRole("tab", { name: /Latest/ })).toBeVisible();
  });
});
