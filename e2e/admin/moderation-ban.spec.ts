/**
 * Banning from the queue, end to end: a reader's three toxic comments (posted through the REST API
 * with a JWT signed with the demo account's shared key) are held and stay visible to their author
 * alone (awaiting_review.json, for the widget after a reload); the moderator presses `b` on
 * one, writes a reason and a message for the reader, ticks "Also reject their 3 pending comments"
 * and bans for 7 days: the reader's comments leave the queue for the Rejected view, nothing of
 * theirs awaits review any more, the reader's history links to their card on the Community page,
 * and the reader's notice says until when (the widget words it in their language and time zone).
 * At desktop and phone sizes, with axe-core.
 */
import { demoReader, postComment } from "../comments";
import { atEachViewport, expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";

type Notice = { kind: string; message: string; until: string | null };

atEachViewport((viewport) => {
  test("a ban from the queue rejects the reader's pending comments and tells the reader until when", async ({
    page,
    request,
    users,
    signIn,
  }) => {
    const stamp = `${viewport.name}${Date.now().toString(36)}`;
    const { accountId, name, jwt, b64 } = await demoReader(stamp, { name: "Brawler", id: "brawler", page: "ban" });
    const base = `/api/v1/accounts/${accountId}/pages/${b64}`;
    const awaiting = async () => {
      const res = await request.get(`${base}/awaiting_review.json?jwt=${encodeURIComponent(jwt)}`);
      expect(res.status()).toBe(200);
      return ((await res.json()) as { comments: { id: number; is_published: boolean }[] }).comments;
    };

    for (const word of ["idiot", "moron", "clown"]) {
      const res = await postComment(request, accountId, b64, `you ${word}, ${stamp}`, jwt);
      expect(res.status(), await res.text()).toBe(201);
    }
    // Held, and seen by their author alone (what the widget needs after a reload).
    expect((await awaiting()).map((c) => c.is_published)).toEqual([false, false, false]);
    const list = await request.get(`${base}/comments.json`);
    expect(((await list.json()) as { total_count: number }).total_count).toBe(0);

    await signIn(users.moderator);
    await page.goto("/admin/engagement/moderation");
    await expect(page.getByRole("heading", { name: "Moderation queue", level: 1 })).toBeVisible();
    const ours = page.getByTestId("queue-item").filter({ hasText: stamp });
    await expect(ours).toHaveCount(3);

    await ours.first().focus();
    await page.keyboard.press("b");
    const ban = page.getByRole("dialog", { name: `Ban ${name}` });
    await expect(ban).toBeVisible();
    await ban.getByLabel("Reason").fill("Insults other readers");
    await ban.getByLabel("For").selectOption("7");
    const message = `Please keep it civil (${stamp}).`;
    await ban.getByLabel("Message to the reader").fill(message);
    const reject = ban.getByRole("checkbox", { name: "Also reject their 3 pending comments" });
    await expect(reject).toBeVisible();
    await reject.check();
    expect(await seriousViolations(page)).toEqual([]);
    await ban.getByRole("button", { name: "Ban", exact: true }).click();
    await expect(page.getByText(`${name} is banned until`)).toBeVisible();
    await expect(page.getByText("3 pending comments rejected.")).toBeVisible();
    await expect(ours).toHaveCount(0);
    await expectNoHorizontalPageScroll(page);

    // In the Rejected view, all three; nothing awaits review for the reader any more.
    await page.goto(`/admin/engagement/moderation?view=rejected&q=${stamp}`);
    const rejected = page.getByTestId("queue-item").filter({ hasText: stamp });
    await expect(rejected).toHaveCount(3);
    expect(await awaiting()).toEqual([]);

    // h, then the history's link: the reader's card on the Community page, suspended, nothing pending.
    await rejected.first().focus();
    await page.keyboard.press("h");
    const history = page.getByRole("dialog", { name: "Reader's history" });
    await history.getByRole("link", { name: "Open on the Community page" }).click();
    await expect(page).toHaveURL(/\/admin\/engagement\/community\?q=%23\d+$/);
    const card = page.getByRole("dialog", { name: "Reader" });
    await expect(card).toContainText(name);
    await expect(card).toContainText("Suspended until");
    await expect(card).toContainText("0 pending");
    await expect(card).toContainText("3 rejected");
    expect(await seriousViolations(page)).toEqual([]);
    await expectNoHorizontalPageScroll(page);

    // The reader's notice: the message, and the suspension's end (an instant the widget words in their zone).
    const res = await request.get(`/api/v1/accounts/${accountId}/notices?jwt=${encodeURIComponent(jwt)}`);
    expect(res.status()).toBe(200);
    const { notices } = (await res.json()) as { notices: Notice[] };
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: "suspension", message });
    const days = (Date.parse(notices[0]!.until!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
  });
});
