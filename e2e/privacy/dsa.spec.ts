/**
 * The EU Digital Services Act's notice and action for a comment, end to end (docs/privacy.md,
 * "Illegal-content notices"), at 1440 and 390 px with axe-core and no sideways scrolling: an
 * anonymous reader reports a comment as illegal content from the widget (captcha solved in the
 * browser); a moderator decides with reasons in the dashboard; the author appeals from the link in
 * their statement of reasons; the moderator reverses the decision; the transparency report counts it.
 */
import type { APIRequestContext, Browser } from "@playwright/test";

import { pageIdOf, postComment } from "../comments";
import {
  demoAccount,
  expect,
  expectNoHorizontalPageScroll,
  seriousViolations,
  submitSignIn,
  test,
  trpcQuery,
} from "../fixtures";
import { commentPagesPerViewport, expectNoSidewaysScrollInFrame, readerJwt, VIEWPORTS } from "../widgets/host-page";

type Mail = { to: string; kind: string; text: string };

/** The owner's requests (the outbox is theirs to read). */
async function ownerRequest(browser: Browser, users: { owner: { email: string; password: string } }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/admin/sign-in");
  await submitSignIn(page, users.owner);
  await expect(page).toHaveURL(/\/admin$/);
  return { request: page.request, close: () => context.close() };
}

async function mailTo(request: APIRequestContext, to: string, kind: string): Promise<Mail[]> {
  const page = await trpcQuery<{ items: Mail[] }>(request, "mail.list", { limit: 50 });
  return page.items.filter((m) => m.to === to && m.kind === kind);
}

test.describe("an illegal-content notice", () => {
  const run = Date.now().toString(36);
  const site = commentPagesPerViewport(23, "dsa", run);

  for (const viewport of VIEWPORTS) {
    test(`goes from notice to decision, appeal and final decision, and is counted (${viewport.name})`, async ({
      page,
      browser,
      request,
      signIn,
      users,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      const { accountId, jwtSecret } = demoAccount();
      const stamp = `${viewport.name}-${run}`;
      const story = `${site.origin}/dsa-${viewport.name}-${run}.html`;
      const authorEmail = `author-${stamp}@example.com`;
      const notifierEmail = `notifier-${stamp}@example.com`;
      const text = `Send me your bank details and I will double your money ${stamp}`;
      const jwt = await readerJwt(jwtSecret, `dsa-author-${stamp}`, `Author ${stamp}`, authorEmail);
      const posted = await postComment(request, accountId, pageIdOf(story), text, jwt);
      expect(posted.status(), await posted.text()).toBe(201);

      // 1. An anonymous reader reports it from the widget.
      const readers = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const tab = await readers.newPage();
      await tab.goto(story);
      const frame = tab.frameLocator("#comments iframe");
      const comment = frame.locator(`li.comment:has(> div.body:has-text(${JSON.stringify(text)}))`);
      await comment.getByRole("button", { name: "Report" }).click();
      const form = comment.locator("form.dsa");
      await form.getByLabel("What kind of illegal content is it?").selectOption("STATEMENT_CATEGORY_SCAMS_AND_FRAUD");
      await form.getByLabel("Which law does it break, and why?").fill("Fraud: it asks readers for bank details.");
      await form.getByLabel("Your name (optional)").fill(`Nia ${stamp}`);
      await form.getByLabel(/Your e-mail/).fill(notifierEmail);
      await form.getByLabel(/in good faith/).check();
      await expectNoSidewaysScrollInFrame(tab);
      expect(await seriousViolations(tab)).toEqual([]);
      await form.getByRole("button", { name: "Send notice" }).click();
      await expect(comment.getByRole("status").filter({ hasText: "we received your notice" })).toBeVisible({
        timeout: 60_000,
      });
      await readers.close();

      // 2. A moderator decides with reasons.
      await signIn(users.moderator);
      await page.goto("/admin/engagement/dsa");
      await expect(page.getByRole("heading", { name: "Illegal-content notices", level: 1 })).toBeVisible();
      const notice = page.getByTestId("dsa-notice").filter({ hasText: stamp });
      await expect(notice).toHaveCount(1);
      await notice.getByLabel("The law").fill("Criminal Code, fraud");
      await notice.getByLabel("Facts and circumstances").fill("The comment asks readers for their bank details.");
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await notice.getByRole("button", { name: "Decide and send the statement of reasons" }).click();
      await expect(page.getByRole("status").filter({ hasText: "decided" })).toBeVisible();

      // 3. The author appeals from the link in their statement of reasons.
      const owner = await ownerRequest(browser, users);
      try {
        let link = "";
        await expect
          .poll(async () => {
            const [sor] = await mailTo(owner.request, authorEmail, "dsa.statement_of_reasons");
            link = /https?:\/\/\S+\/member\/dsa-appeal\?token=\S+/.exec(sor?.text ?? "")?.[0] ?? "";
            return link;
          })
          .not.toBe("");
        expect(await mailTo(owner.request, notifierEmail, "dsa.notice_decision")).toHaveLength(1);
        const party = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
        const appealPage = await party.newPage();
        const url = new URL(link);
        await appealPage.goto(url.pathname + url.search);
        await expect(appealPage.getByRole("heading", { name: "Appeal a decision" })).toBeVisible();
        await expect(appealPage.getByText("The comment was removed.")).toBeVisible();
        await appealPage
          .getByLabel("Why should the decision be reviewed?")
          .fill("It was a joke among friends, nobody could take it seriously.");
        await expectNoHorizontalPageScroll(appealPage);
        expect(await seriousViolations(appealPage)).toEqual([]);
        await appealPage.getByRole("button", { name: "Send appeal" }).click();
        await expect(appealPage.getByText("Your appeal is received.")).toBeVisible();
        await party.close();

        // 4. The moderator reverses it; both parties get the final decision.
        await page.reload();
        await page.getByLabel("Status").selectOption("appealed");
        const appealed = page.getByTestId("dsa-notice").filter({ hasText: stamp });
        await appealed.getByLabel("Outcome").selectOption("reversed");
        await appealed.getByLabel("Reasons").fill("On review, the comment is not a real attempt at fraud.");
        await appealed.getByRole("button", { name: "Decide the appeal" }).click();
        await expect(page.getByRole("status").filter({ hasText: "both parties are told" })).toBeVisible();
        await expect.poll(async () => (await mailTo(owner.request, authorEmail, "dsa.appeal_decision")).length).toBe(1);
        expect(await mailTo(owner.request, notifierEmail, "dsa.appeal_decision")).toHaveLength(1);
        expect(await mailTo(owner.request, notifierEmail, "dsa.notice_receipt")).toHaveLength(1);
      } finally {
        await owner.close();
      }

      // 5. The transparency report counts it.
      const report = page.getByTestId("dsa-report");
      const figure = (name: string) => report.getByRole("row").filter({ hasText: name }).getByTestId("dsa-figure");
      await expect(figure("Decision: Remove (disable) the comment")).not.toHaveText("0");
      await expect(figure("Appeals reversed")).not.toHaveText("0");
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
