/**
 * Every dashboard page, at desktop and phone sizes, as an owner sees it: it fits the window
 * without scrolling sideways, and axe-core (WCAG 2.1 A and AA rules) finds no serious or critical
 * violation, with its main dialogs open too (axe-walk.ts). A page added to the dashboard belongs in
 * PAGES. The other roles' dashboards are every-role-axe.spec.ts.
 */
import type { Page, TestInfo } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test, trpcCall, trpcQuery } from "../fixtures";
import { createNewsletter, setSiteUrl } from "../newsletters/fixtures";
import { navPaths, pageAndDialogViolations, settle } from "./axe-walk";

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Pages by path; the ones that need an id get it from `ids` (found or made before the walk). */
const PAGES: ((ids: Ids) => string)[] = [
  () => "/admin",
  () => "/admin/content",
  () => "/admin/content/stories",
  () => "/admin/content/stories/new",
  (ids) => `/admin/content/stories/${ids.story}`,
  () => "/admin/content/collections",
  (ids) => `/admin/content/collections/${ids.collection}`,
  () => "/admin/content/sections",
  () => "/admin/content/authors",
  () => "/admin/content/tags",
  () => "/admin/content/entities",
  () => "/admin/content/media",
  () => "/admin/engagement",
  () => "/admin/engagement/moderation",
  // A decided view (its items show the decision and "Change to …" actions) with the filters' form.
  () => "/admin/engagement/moderation?view=rejected",
  () => "/admin/engagement/community",
  () => "/admin/engagement/dsa",
  () => "/admin/engagement/settings",
  () => "/admin/engagement/scoring",
  () => "/admin/webhooks",
  (ids) => `/admin/webhooks/${ids.endpoint}`,
  () => "/admin/audit-log",
  () => "/admin/mail",
  () => "/admin/ugc",
  () => "/admin/import",
  () => "/admin/subscriptions",
  () => "/admin/subscriptions/plans",
  () => "/admin/subscriptions/subscribers",
  () => "/admin/subscriptions/subscriptions",
  () => "/admin/subscriptions/invoices",
  () => "/admin/subscriptions/reports",
  () => "/admin/subscriptions/conversions",
  () => "/admin/subscriptions/meter",
  () => "/admin/subscriptions/offers",
  () => "/admin/subscriptions/offer-tests",
  () => "/admin/subscriptions/retention",
  () => "/admin/subscriptions/coupons",
  () => "/admin/subscriptions/campaigns",
  () => "/admin/subscriptions/assets",
  () => "/admin/subscriptions/pricing-plans",
  () => "/admin/subscriptions/taxes",
  () => "/admin/subscriptions/gateways",
  () => "/admin/newsletters",
  (ids) => `/admin/newsletters/${ids.newsletter}`,
  (ids) => `/admin/newsletters/${ids.newsletter}/subscribers`,
  (ids) => `/admin/newsletters/${ids.newsletter}/stats`,
  (ids) => `/admin/newsletters/${ids.newsletter}/stats/sends/${ids.send}`,
  () => "/admin/newsletters/sends",
  () => "/admin/oauth-clients",
  () => "/admin/settings",
  () => "/admin/settings/languages",
  () => "/admin/settings/privacy",
  () => "/admin/users",
  () => "/admin/no-such-page",
  () => "/docs/api",
];

// The walks at the two sizes take a minute or two each (axe is most of it): with E2E_WORKERS=2,
// one worker each.
test.describe.configure({ mode: "parallel" });

type Ids = { story: string; collection: number; endpoint: string; newsletter: number; send: number };

async function findIds(page: Page): Promise<Ids> {
  const stories = await trpcQuery<{ items: { id: string }[] }>(page.request, "stories.list", {});
  const { collections } = await trpcQuery<{ collections: { id: number; automated: boolean; itemCount: number }[] }>(
    page.request,
    "organise.collections.list",
    {},
  );
  const endpoint = await trpcCall<{ endpoint: { id: string } }>(page.request, "webhooks.create", {
    kind: "CONTENT",
    url: "https://hooks.example.com/every-page",
    description: "Every-page check",
    events: ["story-publish"],
  });
  // A newsletter with a subscriber and one send of a published story: its pages, the Sends page
  // and the send's stats page list rows.
  const run = `every-page-${Date.now().toString(36)}`;
  const newsletter = await createNewsletter(page.request, { name: `Every page ${run}`, slug: run, trackOpens: true });
  await trpcCall(page.request, "newsletters.addSubscriber", {
    newsletterId: newsletter.id,
    email: `${run}@example.com`,
    name: "Every Page Reader",
  });
  const published = (await (await page.request.get("/api/v1/stories?limit=1")).json()) as {
    stories: { id: string }[];
  };
  // Story mails link to the story on the site: sending needs the site URL set.
  const siteBefore = await setSiteUrl(page.request, "https://www.gazette.example");
  const sent = await trpcCall<{ sends: { id: number }[] }>(page.request, "newsletterSends.send", {
    storyId: published.stories[0]!.id,
    newsletterIds: [newsletter.id],
    subject: `Every page check ${run}`,
  }).finally(() => setSiteUrl(page.request, siteBefore));
  // A manual collection with items: its editor lists rows.
  return {
    story: stories.items[0]!.id,
    collection: collections.find((c) => !c.automated && c.itemCount > 0)!.id,
    endpoint: endpoint.endpoint.id,
    newsletter: newsletter.id,
    send: sent.sends[0]!.id,
  };
}

for (const viewport of VIEWPORTS) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("every dashboard page fits the window and has no serious accessibility violation", async ({
      page,
      signIn,
      users,
    }, testInfo: TestInfo) => {
      // About 50 pages, each loaded, measured and scanned by axe, while the two integration
      // suites share the two cores.
      test.setTimeout(540_000);
      await signIn(users.owner);
      const ids = await findIds(page);
      // The owner's navigation links to no page the walk leaves out.
      await page.goto("/admin");
      const walked = new Set(PAGES.map((pathOf) => pathOf(ids)));
      expect((await navPaths(page)).filter((path) => !walked.has(path))).toEqual([]);
      const problems: string[] = [];
      for (const pathOf of PAGES) {
        const path = pathOf(ids);
        await page.goto(path);
        await settle(page);
        await expectNoHorizontalPageScroll(page, path);
        if (path === `/admin/content/collections/${ids.collection}`) {
          // The manual editor's rows show their headlines (once squeezed to 0 px by the row's controls).
          const label = page.getByTestId("collection-item-label").first();
          await expect(label).toBeVisible();
          expect((await label.boundingBox())!.width, "a collection row's headline width").toBeGreaterThan(100);
        }
        const found = await pageAndDialogViolations(page, path);
        problems.push(...found);
        // A picture of the pages to look at: of each page with E2E_SCREENSHOTS=1, else of those
        // with a violation (a whole-page picture of the API reference took past 15 s beside the
        // integration suites).
        if (process.env.E2E_SCREENSHOTS === "1" || found.length > 0) {
          await page.screenshot({
            path: testInfo.outputPath(`${path.slice(1).replaceAll("/", "-")}.png`),
            fullPage: true,
            timeout: 60_000,
          });
        }
      }
      expect(problems, problems.join("\n")).toEqual([]);
    });
  });
}

test("the pages before signing in have no serious accessibility violation", async ({ page }) => {
  for (const [path, heading] of [
    ["/admin/sign-in", "Sign in to the dashboard"],
    ["/admin/forgot-password", /password/i],
    ["/admin/reset-password?token=not-a-real-token", /password/i],
    // A reader's newsletter links with a token that is not one: the pages say so.
    ["/newsletters/confirm/not-a-real-token", /^This link is (incomplete|not valid)$/],
    ["/newsletters/unsubscribe/not-a-real-token", /^This link is (incomplete|not valid)$/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    expect(await seriousViolations(page), path).toEqual([]);
  }
});
