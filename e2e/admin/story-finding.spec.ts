/**
 * Finding stories and acting on many at once, and the editor's overview, at desktop and phone
 * width: stories made through tRPC, found by section, author, tag, status and a word of their
 * text; the list's place (filters, search, page) survives opening a story and going Back; two
 * approved stories published and a draft deleted in bulk; the overview shows what awaits approval
 * and the activity chart.
 */
import { randomUUID } from "node:crypto";

import type { Page } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, openFilters, seriousViolations, test, trpcCall } from "../fixtures";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

type Story = { id: string; version: number };

/** One card with one text element: the story's body. */
const body = (text: string) => [
  {
    id: randomUUID(),
    status: "draft",
    version: 1,
    metadata: {},
    "story-elements": [{ id: randomUUID(), type: "text", subtype: null, text: `<p>${text}</p>`, metadata: {} }],
  },
];

async function createStory(page: Page, input: Record<string, unknown>, moves: string[] = []): Promise<Story> {
  let { story } = await trpcCall<{ story: Story }>(page.request, "stories.create", input);
  for (const action of moves) {
    ({ story } = await trpcCall<{ story: Story }>(page.request, "stories.transition", {
      id: story.id,
      version: story.version,
      action,
    }));
  }
  return story;
}

const rows = (page: Page) => page.getByTestId("story-row");

/** axe-core's serious and critical findings (WCAG 2.1 A and AA), one line each. */
async function clearFilters(page: Page) {
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/admin\/content\/stories$/);
}

for (const viewport of VIEWPORTS) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("find stories by filters and text, keep the place across a story and Back, act on several at once; the overview", async ({
      page,
      signIn,
      users,
    }) => {
      test.setTimeout(180_000);
      const run = `${viewport.name}${Date.now().toString(36)}`;
      await signIn(users.owner);
      const { section } = await trpcCall<{ section: { id: number } }>(page.request, "organise.sections.create", {
        name: `Harbour ${run}`,
      });
      const author = await trpcCall<{ id: number }>(page.request, "organise.authors.create", {
        name: `Reporter ${run}`,
      });
      const tag = await trpcCall<{ id: number }>(page.request, "organise.tags.create", { name: `Tag ${run}` });
      const word = `lighthouse${run}`;
      const tagged = { tags: [{ id: tag.id }] };
      const ready1 = await createStory(page, { headline: `Ready one ${run}`, ...tagged }, ["submit", "approve"]);
      const ready2 = await createStory(page, { headline: `Ready two ${run}`, ...tagged }, ["submit", "approve"]);
      const draft = await createStory(page, {
        headline: `Harbour draft ${run}`,
        sectionIds: [section.id],
        authorIds: [author.id],
        cards: body(`The old ${word} keeper retires.`),
        ...tagged,
      });
      await createStory(page, { headline: `Waiting ${run}`, ...tagged }, ["submit"]);
      expect([ready1.id, ready2.id, draft.id].every(Boolean)).toBe(true);

      await page.goto("/admin/content/stories");
      await expect(page.getByRole("heading", { name: "Stories", level: 1 })).toBeVisible();
      const search = page.getByRole("searchbox", { name: "Search headlines and text" });

      // Filters: section, author, tag, status (each one a picker; each kept in the URL). On a phone
      // the form is behind its Filters button.
      await openFilters(page);
      await page.getByRole("combobox", { name: "Section", exact: true }).selectOption({ label: `Harbour ${run}` });
      await expect(page).toHaveURL(new RegExp(`section=${section.id}`));
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page)).toContainText(`Harbour draft ${run}`);
      await clearFilters(page);
      await page.getByRole("combobox", { name: "Author", exact: true }).selectOption({ label: `Reporter ${run}` });
      await expect(rows(page)).toHaveCount(1);
      await clearFilters(page);
      await page.getByRole("combobox", { name: "Tag", exact: true }).selectOption({ label: `Tag ${run}` });
      await expect(rows(page)).toHaveCount(4);
      await page.getByRole("combobox", { name: "Status", exact: true }).selectOption({ label: "Submitted" });
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page)).toContainText(`Waiting ${run}`);
      await clearFilters(page);

      // Search a word of the body text (typed, with the last word as a prefix), open the story, go Back.
      await search.fill(word.slice(0, -2));
      await expect(page).toHaveURL(/q=lighthouse/);
      await expect(rows(page)).toHaveCount(1);
      await rows(page).getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`/admin/content/stories/${draft.id}$`));
      await page.goBack();
      await openFilters(page);
      await expect(search).toHaveValue(word.slice(0, -2));
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page)).toContainText(`Harbour draft ${run}`);
      await search.fill("");
      await expect(page).not.toHaveURL(/q=/);

      // The page is kept too: page 2, a story, Back (the demo account has more than a page of stories).
      await page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Next" }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(page.getByText(/^Page 2 of \d+/)).toBeVisible();
      await rows(page).first().getByRole("link").click();
      await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/);
      await page.goBack();
      await expect(page).toHaveURL(/page=2/);
      await expect(page.getByText(/^Page 2 of \d+/)).toBeVisible();
      await expectNoHorizontalPageScroll(page);

      // Bulk: publish the two approved stories (chosen with the keyboard), delete the draft.
      await page.goto(`/admin/content/stories?tag=${tag.id}&sort=headline`);
      await expect(rows(page)).toHaveCount(4);
      await page.getByRole("checkbox", { name: `Choose “Ready one ${run}”` }).focus();
      await page.keyboard.press("Space");
      await page.getByRole("checkbox", { name: `Choose “Ready two ${run}”` }).check();
      await page.getByRole("checkbox", { name: `Choose “Waiting ${run}”` }).check();
      const toolbar = page.getByRole("toolbar", { name: "Act on the chosen stories" });
      await expect(toolbar).toContainText("3 chosen");
      await toolbar.getByRole("button", { name: "Publish" }).click();
      await expect(page.getByTestId("bulk-outcome")).toContainText("2 published, 1 refused: not approved (submitted)");
      await expect(page.getByTestId("bulk-outcome")).toContainText(`Waiting ${run}: not approved (submitted)`);
      await expect(
        rows(page)
          .filter({ hasText: `Ready one ${run}` })
          .getByTestId("story-status"),
      ).toHaveAttribute("data-status", "PUBLISHED");
      await expect(
        rows(page)
          .filter({ hasText: `Ready two ${run}` })
          .getByTestId("story-status"),
      ).toHaveAttribute("data-status", "PUBLISHED");

      await page.getByRole("checkbox", { name: `Choose “Harbour draft ${run}”` }).check();
      await toolbar.getByRole("button", { name: "Delete drafts" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toContainText("Delete this story?");
      await dialog.getByRole("button", { name: "Delete drafts" }).click();
      await expect(page.getByTestId("bulk-outcome")).toContainText("1 deleted");
      await expect(rows(page)).toHaveCount(3);
      await expectNoHorizontalPageScroll(page);
      // With rows chosen, the toolbar and the outcome showing.
      await page.getByRole("checkbox", { name: "Choose all on this page" }).check();
      await expect(toolbar).toContainText("3 chosen");
      expect(await seriousViolations(page)).toEqual([]);

      // The overview: what awaits approval (linking into the list), and the activity chart.
      await page.goto("/admin");
      const newsroom = page.getByRole("region", { name: "Newsroom" });
      await expect(newsroom.getByRole("heading", { name: "Awaiting approval" })).toBeVisible();
      expect(Number(await page.getByTestId("overview-awaitingApproval").textContent())).toBeGreaterThanOrEqual(1);
      expect(Number(await page.getByTestId("overview-publishedToday").textContent())).toBeGreaterThanOrEqual(2);
      const chart = page.getByTestId("activity-chart");
      await expect(chart.getByRole("img", { name: /Published stories and votes per day/ })).toBeVisible();
      await expect(chart.getByRole("table")).toHaveCount(1);
      await expect(chart.getByRole("row")).toHaveCount(31);
      await expectNoHorizontalPageScroll(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("link", { name: "Awaiting approval: all in Stories" }).click();
      await expect(page).toHaveURL(/status=submitted/);
      await openFilters(page);
      await expect(page.getByRole("combobox", { name: "Status", exact: true })).toHaveValue("SUBMITTED");
      await expect(rows(page).filter({ hasText: `Waiting ${run}` })).toHaveCount(1);
    });
  });
}
