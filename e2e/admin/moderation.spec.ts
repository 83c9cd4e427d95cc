/**
 * The moderators' side of comments, end to end: a reader's toxic comments (posted through the REST
 * API with a JWT signed with the demo account's shared key, as a publisher's site would) are held;
 * the moderator finds them in the queue, approves one with the keyboard, bans the reader from the
 * queue, and the reader's next comment is refused. At desktop and phone sizes, with axe-core.
 */
import { demoReader, pageIdOf, postComment, publicCommentCount, readerJwt } from "../comments";
import { atEachViewport, demoAccount, expect, expectCleanPage, seriousViolations, test } from "../fixtures";

atEachViewport((viewport) => {
  test("a held toxic comment is approved with a key, its author banned, and their next comment refused", async ({
    page,
    request,
    users,
    signIn,
  }) => {
    const stamp = `${viewport.name}-${Date.now().toString(36)}`;
    const { accountId, name, jwt, b64 } = await demoReader(stamp, { name: "Troll", id: "troll", page: "moderation" });

    // Two toxic comments: both held for a moderator (toxicity ≥ 70), seen only by their author.
    for (const text of ["you idiot", "you moron"]) {
      const res = await postComment(request, accountId, b64, text, jwt);
      expect(res.status(), await res.text()).toBe(201);
      expect(((await res.json()) as { comment: { is_published: boolean } }).comment.is_published).toBe(false);
    }
    const list = () => publicCommentCount(request, accountId, b64);
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
    // The moderation buttons are targets of at least 24 px each way (WCAG 2.5.8).
    const boxes = await idiot.getByRole("button").evaluateAll((els) =>
      els
        .filter((el) => el.checkVisibility())
        .map((el) => {
          const { width, height } = el.getBoundingClientRect();
          return { label: el.textContent ?? "", width, height };
        }),
    );
    expect(boxes.length).toBeGreaterThan(0);
    for (const { label, width, height } of boxes) {
      expect(height, `${label}: height`).toBeGreaterThanOrEqual(24);
      expect(width, `${label}: width`).toBeGreaterThanOrEqual(24);
    }
    await expectCleanPage(page, page.url());

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

test("the moderation settings page saves a change", async ({ page, users, signIn }) => {
  await signIn(users.moderator);
  await page.goto("/admin/engagement/settings");
  await expect(page.getByRole("heading", { name: "Moderation settings", level: 1 })).toBeVisible();
  const threshold = page.getByLabel("Toxicity threshold");
  await expect(threshold).toHaveValue(/\d+/);
  const before = await threshold.inputValue();
  await threshold.fill(before === "69" ? "70" : "69");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved: toxicity threshold.")).toBeVisible();
  await threshold.fill(before);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved: toxicity threshold.")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test.describe("on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("word lists are pasted; a suspect word publishes the comment and puts it in the Reported tab", async ({
    page,
    request,
    users,
    signIn,
  }) => {
    const { accountId, jwtSecret } = demoAccount();
    const stamp = Date.now().toString(36);
    const suspect = `zorblax${stamp}`;
    await signIn(users.moderator);
    await page.goto("/admin/engagement/settings");
    const lists = {
      refuse: page.getByLabel(/^Refuse \(\d+\)/),
      hold: page.getByLabel(/^Hold \(\d+\)/),
      suspect: page.getByLabel(/^Suspect \(flag only\) \(\d+\)/),
    };
    const before = { hold: await lists.hold.inputValue(), suspect: await lists.suspect.inputValue() };

    // The same word in two lists is said at once, naming it and both lists; nothing is saved.
    await lists.hold.fill(`${before.hold}\n${suspect}`.trim());
    await lists.suspect.fill(`${before.suspect}\n  ${suspect.toUpperCase()} \n\n`.trim());
    await expect(page.getByTestId("field-error")).toHaveText(
      `“${suspect.toUpperCase()}” is in two lists (Hold and Suspect (flag only)): keep it in one.`,
    );
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Saved: banned and suspect words.")).toHaveCount(0);

    // Pasted as a list: one per line, commas too; counted as the reader will be matched.
    await lists.hold.fill(before.hold);
    await lists.suspect.fill(`${before.suspect}\n${suspect}, miracle pill ${stamp}`.trim());
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Saved: banned and suspect words.")).toBeVisible();
    await page.reload();
    await expect(lists.suspect).toHaveValue(new RegExp(`${suspect}\\nmiracle pill ${stamp}$`));
    await expectCleanPage(page, page.url());

    // A reader's comment with the suspect word is published, and waits in the Reported tab.
    const jwt = await readerJwt({ id: `curious-${stamp}`, name: `Curious ${stamp}` }, jwtSecret);
    const b64 = pageIdOf(`https://localhost/news/suspect-${stamp}`);
    const res = await postComment(request, accountId, b64, `Has anyone tried ${suspect}? Asking for a friend.`, jwt);
    expect(res.status(), await res.text()).toBe(201);
    expect(await publicCommentCount(request, accountId, b64)).toBe(1);
    await page.goto("/admin/engagement/moderation?view=reported");
    const ours = page.getByTestId("queue-item").filter({ hasText: suspect });
    await expect(ours).toHaveCount(1);
    await expect(ours).toContainText("Flagged: a suspect word");
    await expect(ours.locator("mark", { hasText: suspect })).toBeVisible();

    // The lists as they were.
    await page.goto("/admin/engagement/settings");
    await lists.suspect.fill(before.suspect);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Saved: banned and suspect words.")).toBeVisible();
  });
});
