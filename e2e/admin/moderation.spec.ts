/**
 * The moderators' side of comments, end to end: a reader's toxic comments (posted through the REST
 * API with a JWT signed with the demo account's shared key, as a publisher's site would) are held;
 * the moderator finds them in the queue, approves one with the keyboard, bans the reader from the
 * queue, and the reader's next comment is refused. At desktop and phone sizes, with axe-core.
 */
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { SignJWT } from "jose";

import { demoAccount, expect, expectNoHorizontalPageScroll, test } from "../fixtures";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} – ${v.help}`));
}

function readerJwt(claims: { id: string; name: string }, secret: string): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));
}

/** The page id of a URL: base64 of the URL, URL-safe alphabet (docs/engagement.md "Pages and their ids"). */
const pageIdOf = (url: string) => Buffer.from(url).toString("base64url");

async function postComment(request: APIRequestContext, accountId: number, b64: string, text: string, jwt: string) {
  return request.post(`/api/v1/accounts/${accountId}/pages/${b64}/comments.json`, {
    data: { comment: { body: { ops: [{ insert: text }] } }, jwt },
  });
}

for (const viewport of VIEWPORTS) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a held toxic comment is approved with a key, its author banned, and their next comment refused", async ({
      page,
      request,
      users,
      signIn,
    }) => {
      const { accountId, jwtSecret } = demoAccount();
      const stamp = `${viewport.name}-${Date.now().toString(36)}`;
      const name = `Troll ${stamp}`;
      const jwt = await readerJwt({ id: `troll-${stamp}`, name }, jwtSecret);
      const b64 = pageIdOf(`https://localhost/news/moderation-${stamp}`);

      // Two toxic comments: both held for a moderator (toxicity ≥ 70), seen only by their author.
      for (const text of ["you idiot", "you moron"]) {
        const res = await postComment(request, accountId, b64, text, jwt);
        expect(res.status(), await res.text()).toBe(201);
        expect(((await res.json()) as { comment: { is_published: boolean } }).comment.is_published).toBe(false);
      }
      const list = async () =>
        (
          (await (await request.get(`/api/v1/accounts/${accountId}/pages/${b64}/comments.json`)).json()) as {
            total_count: number;
          }
        ).total_count;
      expect(await list()).toBe(0);

      await signIn(users.moderator);
      await page.goto("/admin/engagement/moderation");
      await expect(page.getByRole("heading", { name: "Moderation queue", level: 1 })).toBeVisible();
      const ours = page.getByTestId("queue-item").filter({ hasText: name });
      await expect(ours).toHaveCount(2);
      const idiot = ours.filter({ hasText: "you idiot" });
      const moron = ours.filter({ hasText: "you moron" });
      await expect(idiot).toContainText("held.toxicity");
      await expect(idiot).toContainText("new reader");
      expect(await seriousViolations(page)).toEqual([]);
      await expectNoHorizontalPageScroll(page);

      // "?" lists the shortcuts; Escape closes the list.
      await page.keyboard.press("?");
      const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await expect(help).toBeVisible();
      await expect(help.getByRole("cell", { name: "Approve (publish)" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(help).toBeHidden();

      // Newest first: "you moron" then "you idiot". j moves the selection down; a approves it.
      await moron.focus();
      await page.keyboard.press("j");
      await expect(idiot).toBeFocused();
      await page.keyboard.press("a");
      await expect(page.getByText(/^Approved: comment \d+\.$/)).toBeVisible();
      await expect(idiot).toHaveCount(0);
      await expect.poll(list).toBe(1);

      // b bans the selected comment's author.
      await moron.focus();
      await page.keyboard.press("b");
      const ban = page.getByRole("dialog", { name: `Ban ${name}` });
      await expect(ban).toBeVisible();
      await ban.getByLabel("Reason").fill("Insults other readers");
      await ban.getByLabel("For").selectOption("7");
      await ban.getByRole("button", { name: "Ban", exact: true }).click();
      await expect(page.getByText(`${name} is banned until`)).toBeVisible();
      await expect(moron.getByText("banned", { exact: true })).toBeVisible();

      // h shows the reader's history, with the ban.
      await moron.focus();
      await page.keyboard.press("h");
      const history = page.getByRole("dialog", { name: "Reader's history" });
      await expect(history.getByText("Insults other readers")).toBeVisible();
      await expect(history.getByRole("button", { name: "Lift the ban" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      // The reader's next comment is refused, saying until when.
      const refused = await postComment(request, accountId, b64, "Let me back in", jwt);
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
        /^You are banned from commenting here until \d{4}-/,
      );
      expect(await list()).toBe(1);
    });
  });
}

test("the moderation settings page saves a change", async ({ page, users, signIn }) => {
  await signIn(users.moderator);
  await page.goto("/admin/engagement/settings");
  await expect(page.getByRole("heading", { name: "Moderation settings", level: 1 })).toBeVisible();
  const threshold = page.getByLabel("Toxicity threshold");
  await expect(threshold).toHaveValue(/\d+/);
  const before = await threshold.inputValue();
  await threshold.fill(before === "69" ? "70" : "69");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved: toxicityThreshold.")).toBeVisible();
  await threshold.fill(before);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved: toxicityThreshold.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
