/**
 * A moderator's decision, taken back and changed, end to end: a reader's toxic comment (posted
 * through the REST API with a JWT signed with the demo account's shared key) is held; the
 * moderator rejects it with a key, undoes that from the message, rejects it again, opens the
 * Rejected view, finds it by a search kept in the URL, and approves it back from there (a change
 * from the Approved view back to rejected is undone too); the
 * comment is then on the page, and the owner's audit log shows the rejection and the approval by
 * the moderator. At desktop and phone sizes, with axe-core.
 */
import { pageIdOf, postComment, publicCommentCount, readerJwt } from "../comments";
import {
  asStaff,
  atEachViewport,
  auditEntries,
  demoAccount,
  expect,
  expectCleanPage,
  expectNoHorizontalPageScroll,
  openFilters,
  seriousViolations,
  test,
} from "../fixtures";

atEachViewport((viewport) => {
  test("a rejected comment is undone, rejected again, found in the Rejected view and approved back, audited", async ({
    page,
    request,
    browser,
    users,
    signIn,
  }) => {
    const { accountId, jwtSecret } = demoAccount();
    const stamp = `${viewport.name}${Date.now().toString(36)}`;
    const jwt = await readerJwt({ id: `heckler-${stamp}`, name: `Heckler ${stamp}` }, jwtSecret);
    const b64 = pageIdOf(`https://localhost/news/decisions-${stamp}`);

    // A toxic comment, held for a moderator (toxicity ≥ 70).
    const res = await postComment(request, accountId, b64, `you idiot, the budget ${stamp} is wrong`, jwt);
    expect(res.status(), await res.text()).toBe(201);
    const list = () => publicCommentCount(request, accountId, b64);
    expect(await list()).toBe(0);

    await signIn(users.moderator);
    await page.goto("/admin/engagement/moderation");
    await expect(page.getByRole("heading", { name: "Moderation queue", level: 1 })).toBeVisible();
    const ours = page.getByTestId("queue-item").filter({ hasText: stamp });
    await expect(ours).toHaveCount(1);
    const commentId = await ours.getAttribute("data-comment-id");
    expect(commentId).toMatch(/^\d+$/);
    // The reasons in words (with their codes), and the word that triggered them marked.
    await expect(ours).toContainText(/Held: toxicity [\d.]+ ≥ threshold \d+/);
    await expect(ours).toContainText("held.toxicity");
    await expect(ours.locator("mark", { hasText: "idiot" })).toBeVisible();

    // r rejects; the message offers Undo, which puts the comment back in the queue.
    await ours.focus();
    await page.keyboard.press("r");
    await expect(page.getByText(`Rejected: comment ${commentId}.`)).toBeVisible();
    await expect(ours).toHaveCount(0);
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByText(`Undone: comment ${commentId} is waiting for a decision again.`)).toBeVisible();
    await expect(ours).toHaveCount(1);

    // Rejected again, for good this time.
    await ours.focus();
    await page.keyboard.press("r");
    await expect(page.getByText(`Rejected: comment ${commentId}.`)).toBeVisible();
    await expect(ours).toHaveCount(0);

    // The Rejected view, searched: the search is in the URL, so a reload (or a shared link) keeps it.
    await page.getByRole("tab", { name: /^Rejected/ }).click();
    await openFilters(page);
    await page.getByLabel("Search comments").fill(stamp);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`view=rejected&q=${stamp}`));
    await expect(ours).toHaveCount(1);
    await expect(ours.getByTestId("decision")).toContainText("Rejected by");
    await page.reload();
    await expect(page.getByLabel("Search comments")).toHaveValue(stamp);
    await expect(page.getByRole("tab", { name: /^Rejected/ })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("queue-item")).toHaveCount(1);
    await expectCleanPage(page, page.url());

    // Approved back from the Rejected view: on the page again, and in the Approved view.
    await ours.getByRole("button", { name: "Change to approve" }).click();
    await expect(page.getByText(`Approved: comment ${commentId}.`)).toBeVisible();
    await expect(ours).toHaveCount(0);
    await expect.poll(list).toBe(1);
    await page.getByRole("tab", { name: /^Approved/ }).click();
    await expect(page).toHaveURL(new RegExp(`view=approved&q=${stamp}`));
    await expect(ours).toHaveCount(1);
    await expect(ours.getByTestId("decision")).toContainText("Approved by");
    await expectCleanPage(page, page.url());

    // A change made from a decided view is undone too: rejected from the Approved view, then Undo.
    await ours.getByRole("button", { name: "Change to reject" }).click();
    await expect(page.getByText(`Rejected: comment ${commentId}.`)).toBeVisible();
    await expect(ours).toHaveCount(0);
    await expect.poll(list).toBe(0);
    await page.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByText(`Undone: comment ${commentId} is approved again.`)).toBeVisible();
    await expect(ours).toHaveCount(1);
    await expect.poll(list).toBe(1);

    // The owner's audit log shows the rejection and the approval, by the moderator.
    await asStaff(
      browser,
      users.owner,
      async (owner) => {
        await owner.goto("/admin/audit-log");
        for (const action of ["comment.reject", "comment.undo", "comment.approve"]) {
          await openFilters(owner);
          await owner.getByLabel("Action").selectOption({ value: action });
          const row = auditEntries(owner)
            .filter({ has: owner.locator("code", { hasText: action }) })
            .filter({ hasText: users.moderator.email })
            .filter({ has: owner.getByText(commentId!, { exact: true }) });
          await expect(row.first()).toBeVisible();
        }
        expect(await seriousViolations(owner)).toEqual([]);
        await expectNoHorizontalPageScroll(owner);
      },
      { viewport: { width: viewport.width, height: viewport.height } },
    );
  });
});
