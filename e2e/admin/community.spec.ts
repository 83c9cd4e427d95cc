/**
 * The Community page, end to end: a reader's comments (posted through the REST API with a JWT
 * signed with the demo account's shared key, as a publisher's site would) are two published and
 * one held (a link from a new reader); a moderator finds the reader on the Community page, opens
 * their card, rejects their pending comment, then all their comments, and the reader's comments
 * leave the public list. At desktop (1440 px) and phone (390 px) sizes, with axe-core. Then a
 * moderator's warning reaches the demo article's reader in the comment widget, once, and a
 * suspension says until when in the reader's time zone, once.
 */
import type { APIRequestContext } from "@playwright/test";

import { demoReader, postComment as postCommentAs, publicCommentCount } from "../comments";
import {
  atEachViewport,
  expect,
  expectCleanPage,
  expectNoHorizontalPageScroll,
  openFilters,
  seriousViolations,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

async function postComment(request: APIRequestContext, accountId: number, b64: string, text: string, jwt: string) {
  const res = await postCommentAs(request, accountId, b64, text, jwt);
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { comment: { is_published: boolean } }).comment;
}

atEachViewport((viewport) => {
  test("a moderator finds a reader on the Community page and rejects their pending, then all their comments", async ({
    page,
    request,
    users,
    signIn,
  }) => {
    const stamp = `${viewport.name}-${Date.now().toString(36)}`;
    const { accountId, name, jwt, b64 } = await demoReader(stamp, {
      name: "Reader",
      id: "community",
      page: "community",
    });

    // Two ordinary comments are published; a link from a new reader waits for a moderator.
    expect((await postComment(request, accountId, b64, "A fair point about the budget.", jwt)).is_published).toBe(true);
    expect(
      (await postComment(request, accountId, b64, "And the schools plan deserves a closer look.", jwt)).is_published,
    ).toBe(true);
    expect(
      (await postComment(request, accountId, b64, "More on this at https://example.com/more-reading", jwt))
        .is_published,
    ).toBe(false);
    const visible = () => publicCommentCount(request, accountId, b64);
    expect(await visible()).toBe(2);

    await signIn(users.moderator);
    await page.goto("/admin/engagement/community");
    await expect(page.getByRole("heading", { name: "Community", level: 1 })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Engagement" }).getByRole("link", { name: "Community" }),
    ).toHaveAttribute("aria-current", "page");

    // Find the reader by name.
    if (viewport.name === "phone") await expect(page.getByRole("searchbox", { name: "Find a reader" })).toBeHidden();
    await openFilters(page);
    await page.getByRole("searchbox", { name: "Find a reader" }).fill(name);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const row = page.getByTestId("reader-row").filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId("reader-row")).toHaveCount(1);
    await expect(row).toContainText("2 published · 1 pending · 0 rejected");
    await expect(row).toContainText("In good standing");
    await expectCleanPage(page, page.url());

    // The filter "Has pending comments" keeps them.
    await page.getByLabel("Has pending comments").check();
    await expect(row).toHaveCount(1);

    // Their card: comments with state and page.
    await row.getByRole("button", { name: `Open ${name}` }).click();
    const card = page.getByRole("dialog", { name: "Reader", exact: true });
    await expect(card.getByRole("heading", { name: new RegExp(name) })).toBeVisible();
    await expect(card.getByTestId("card-comment")).toHaveCount(3);
    await expectCleanPage(page, page.url());

    // Reject the pending one: it leaves the queue; the published ones stay.
    await card.getByRole("button", { name: "Reject 1 pending comment" }).click();
    const confirmPending = page.getByRole("dialog", { name: `Reject ${name}'s 1 pending comment?` });
    await confirmPending.getByRole("button", { name: "Reject pending comments" }).click();
    await expect(card.getByText("Rejected 1 comment.")).toBeVisible();
    await expect(card).toContainText("2 published · 0 pending · 1 rejected");
    expect(await visible()).toBe(2);

    // Reject all their comments: the published ones leave the page.
    await card.getByRole("button", { name: "Reject all their comments" }).click();
    const confirmAll = page.getByRole("dialog", { name: `Reject all of ${name}'s comments?` });
    await confirmAll.getByRole("button", { name: "Reject all", exact: true }).click();
    await expect(card.getByText("Rejected 2 comments.")).toBeVisible();
    await expect(card).toContainText("0 published · 0 pending · 3 rejected");
    await expect(card.getByText(/Comment #\d+ rejected by /)).toHaveCount(3);
    await expect.poll(visible).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // Back on the list, the row says so (with the pending filter off).
    await page.keyboard.press("Escape");
    await expect(card).toBeHidden();
    await page.getByLabel("Has pending comments").uncheck();
    await expect(row).toContainText("0 published · 0 pending · 3 rejected");
    await expectNoHorizontalPageScroll(page);
  });
});

test("a warned reader sees the warning in the comment widget once, and acknowledges it", async ({
  page,
  users,
  signIn,
}) => {
  await signIn(users.moderator);
  const frame = page.frameLocator("#comments iframe");
  const openAsAda = async () => {
    await page.goto("/demo/article");
    await expect(frame.getByRole("heading", { name: /comments?$/ })).toBeVisible();
    await page.getByRole("button", { name: "Sign in as Ada" }).click();
    await expect(frame.getByText("Signed in as Ada Reader")).toBeVisible();
  };
  await openAsAda();

  // The demo reader, exactly (publisher:<JWT id>), warned through the Community page's API.
  const { items } = await trpcQuery<{ items: { memberId: number }[] }>(page.request, "community.readers", {
    q: "publisher:demo-reader-ada",
  });
  expect(items).toHaveLength(1);
  const message = `Please keep to the topic (${Date.now().toString(36)}).`;
  await trpcCall(page.request, "community.warn", { memberId: items[0]!.memberId, message });

  await openAsAda();
  const notice = frame.getByRole("region", { name: "A message from the moderators" });
  // Oldest first: a warning an earlier, interrupted run left is acknowledged on the way.
  for (let i = 0; i < 10; i++) {
    await expect(notice).toBeVisible();
    if ((await notice.textContent())?.includes(message)) break;
    await notice.getByRole("button", { name: "I understand" }).click();
  }
  await expect(notice).toContainText(message);
  expect(await seriousViolations(page)).toEqual([]);
  await notice.getByRole("button", { name: "I understand" }).click();
  await expect(notice).toBeHidden();

  // Once: not shown again.
  await openAsAda();
  await expect(frame.getByRole("region", { name: "A message from the moderators" })).toHaveCount(0);
});

test.describe("a suspended reader", () => {
  // The reader's browser is in Mexico City (UTC−6 in winter): the widget says the end in that zone.
  test.use({ timezoneId: "America/Mexico_City", locale: "en-US" });

  test("is told until when in their own time zone, once", async ({ page, users, signIn }) => {
    await signIn(users.moderator);
    const frame = page.frameLocator("#comments iframe");
    const openAsBen = async () => {
      await page.goto("/demo/article");
      await expect(frame.getByRole("heading", { name: /comments?$/ })).toBeVisible();
      await page.getByRole("button", { name: "Sign in as Ben" }).click();
      await expect(frame.getByText("Signed in as Ben Reader")).toBeVisible();
    };
    await openAsBen();
    const { items } = await trpcQuery<{ items: { memberId: number }[] }>(page.request, "community.readers", {
      q: "publisher:demo-reader-ben",
    });
    expect(items).toHaveLength(1);
    const memberId = items[0]!.memberId;

    // Suspended until 15:00 UTC three days from now: 09:00 in Mexico City.
    const until = new Date(Date.now() + 3 * 86_400_000);
    until.setUTCHours(15, 0, 0, 0);
    const message = `Cool off for a few days (${Date.now().toString(36)}).`;
    // A Date through tRPC's superjson: the value as ISO text, typed by `meta`.
    const res = await page.request.post("/api/trpc/community.suspend", {
      data: {
        json: { memberId, reason: "e2e: a suspension shown to the reader", message, until: until.toISOString() },
        meta: { values: { until: ["Date"] } },
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    try {
      await openAsBen();
      const notice = frame.getByRole("region", { name: "Your commenting on this site" });
      await expect(notice).toBeVisible();
      const day = new Intl.DateTimeFormat("en-US", {
        timeZone: "America/Mexico_City",
        month: "long",
        day: "numeric",
        year: "numeric",
      }).format(until);
      await expect(notice).toContainText(`You cannot comment here until ${day}`);
      await expect(notice).toContainText(/9:00\s?AM CST/);
      await expect(notice).toContainText(message);
      expect(await seriousViolations(page)).toEqual([]);
      await notice.getByRole("button", { name: "I understand" }).click();
      await expect(notice).toBeHidden();

      // Once: not shown again after a reload.
      await openAsBen();
      await expect(frame.getByRole("region", { name: "Your commenting on this site" })).toHaveCount(0);
    } finally {
      await trpcCall(page.request, "community.lift", { memberId });
    }
  });
});
