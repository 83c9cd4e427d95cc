/**
 * The editorial workflow end to end: the owner subscribes a webhook (dashboard), an editor writes a
 * story in the dashboard, submits, approves and publishes it; the content API serves it by slug, and
 * the receiver gets signed story-submit, story-approve and story-publish deliveries whose data carries
 * the story's section, that section's parent and the section's collection.
 */
import { verifyQtSignature } from "../../server/webhooks/signing";
import { deliveriesTo, expect, pngFile, submitSignIn, test, trpcCall } from "../fixtures";

type Delivery = {
  v1: { event: { id: number; name: string; time: number }; data: Record<string, Record<string, unknown> | null> };
};

// eslint-disable-next-line max-lines-per-function -- one journey through the dashboard: each step needs the one before it
test("an editor writes, submits, approves and publishes a story; the API serves it and a webhook gets the signed events", async ({
  page,
  browser,
  users,
  signIn,
  webhookReceiver,
}) => {
  const url = webhookReceiver.url;
  const run = Date.now().toString(36);

  // 1. The owner subscribes an endpoint to the three workflow events.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto("/admin/sign-in");
  await submitSignIn(owner, users.owner);
  await expect(owner).toHaveURL(/\/admin$/);
  await owner.goto("/admin/webhooks");
  await owner.getByRole("button", { name: "Add webhook" }).click();
  await owner.getByLabel("Endpoint URL").fill(url);
  for (const event of ["story-submit", "story-approve", "story-publish"])
    await owner.getByLabel(event, { exact: true }).check();
  await owner.getByRole("button", { name: "Add webhook" }).last().click();
  const secret = (await owner.getByTestId("secret-value").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await ownerContext.close();

  // 2. The editor: a section with a parent (and its section collection) to file the story under.
  await signIn(users.editor);
  const { section: parent } = await trpcCall<{ section: { id: number } }>(page.request, "organise.sections.create", {
    name: `Metro ${run}`,
  });
  const { section: city } = await trpcCall<{ section: { id: number } }>(page.request, "organise.sections.create", {
    name: `City ${run}`,
    parentId: parent.id,
  });
  expect(typeof city.id).toBe("number");

  await page.getByRole("navigation").getByRole("link", { name: "Content", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Content", level: 1 })).toBeVisible();
  await page
    .getByRole("main")
    .getByRole("link", { name: /Stories/ })
    .click();
  await expect(page.getByRole("heading", { name: "Stories", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "New story" }).click();

  const headline = `Tram line opens ${run}`;
  await page.getByLabel("Headline", { exact: true }).fill(headline);
  await page.getByLabel("Subheadline").fill("The first tram left the depot at six.");
  // The text element is a rich-text editor (e2e/admin/story-writing.spec.ts covers it in depth).
  await page.getByLabel("Text 1.1").click();
  await page.keyboard.type("Crowds lined the street to ");
  await page.keyboard.press("ControlOrMeta+b");
  await page.keyboard.type("cheer");
  await page.keyboard.press("ControlOrMeta+b");
  await page.keyboard.type(".");
  await page.getByTestId("card").first().getByRole("button", { name: "+ YouTube" }).click();
  await page.getByLabel("YouTube URL 1.2").fill("https://youtu.be/dQw4w9WgXcQ");
  await expect(page.getByText("Video id: dQw4w9WgXcQ")).toBeVisible();
  await page
    .getByTestId("sections")
    .getByRole("combobox")
    .selectOption({ label: `City ${run}` });
  await page.getByPlaceholder("New tag").fill(`Transport ${run}`);
  await page.getByRole("button", { name: "Add tag" }).click();
  await page.getByLabel("Meta title").fill("Trams are back");
  await page.getByLabel("Upload hero image").setInputFiles(pngFile("tram.png"));
  await expect(page.getByLabel("Hero image key")).not.toHaveValue("");
  const heroKey = await page.getByLabel("Hero image key").inputValue();
  await page.getByLabel("Hero caption").fill("The first tram");
  await page.getByRole("button", { name: "Create draft" }).click();

  await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "DRAFT");
  const slug = await page.getByLabel("Slug", { exact: true }).inputValue();
  expect(slug).toBe(`tram-line-opens-${run}`);
  // Sanitised on save: the editor now shows what was stored.
  await expect(page.getByLabel("Text 1.1")).toContainText("Crowds lined the street to cheer.");
  await expect(page.getByLabel("Text 1.1").locator("strong")).toHaveText("cheer");
  // Only the legal move is offered.
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);

  for (const [button, status] of [
    ["Submit", "SUBMITTED"],
    ["Approve", "APPROVED"],
  ] as const) {
    await page.getByRole("button", { name: button, exact: true }).click();
    await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", status);
    // The notice says how many webhooks the event went to (the owner's endpoint at least).
    await expect(page.getByText(new RegExp(`story-${button.toLowerCase()} sent to \\d+ webhooks?\\.`))).toBeVisible();
  }
  // An approved story can be scheduled, and the schedule called off.
  // A time beyond the year ahead an editor may schedule is refused next to the field.
  await page.getByLabel("Publish at").fill("2099-01-01T09:30");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByText("must be between a minute and a year from now")).toBeVisible();
  const nextWeek = new Date(Date.now() + 7 * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  await page
    .getByLabel("Publish at")
    .fill(`${nextWeek.getFullYear()}-${pad(nextWeek.getMonth() + 1)}-${pad(nextWeek.getDate())}T09:30`);
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByText("Scheduled to publish")).toBeVisible();
  await page.getByRole("button", { name: "Cancel schedule" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel schedule" }).click();
  await expect(page.getByText("Scheduled to publish")).toHaveCount(0);
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "APPROVED");
  // Publish asks first; saying no leaves the story as it was.
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("dialog")).toContainText(`Publish "${headline}" now?`);
  await page.getByRole("dialog").getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "APPROVED");
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByTestId("story-status")).toHaveAttribute("data-status", "PUBLISHED");
  await expect(page.getByRole("button", { name: "Retract" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);

  // 3. The list finds it.
  await page.getByRole("link", { name: "All stories" }).click();
  await page.getByLabel("Status", { exact: true }).selectOption("PUBLISHED");
  await page.getByLabel("Search headlines").fill(run);
  await expect(page.getByTestId("story-row")).toHaveCount(1);
  await expect(page.getByTestId("story-row")).toContainText(headline);

  // 4. The content API serves the published story.
  const api = await page.request.get(`/api/v1/stories-by-slug?slug=${encodeURIComponent(slug)}`);
  expect(api.status()).toBe(200);
  const { story } = (await api.json()) as { story: Record<string, unknown> };
  expect(story).toMatchObject({
    headline,
    slug,
    status: "published",
    subheadline: "The first tram left the depot at six.",
  });
  expect((story.sections as { id: number }[]).map((s) => s.id)).toEqual([city.id]);
  expect((story.tags as { name: string }[]).map((t) => t.name)).toEqual([`Transport ${run}`]);
  expect(story).toMatchObject({
    "hero-image-s3-key": heroKey,
    "hero-image-caption": "The first tram",
    "hero-image-metadata": { width: 1, height: 1 },
  });
  expect(story.seo).toMatchObject({ "meta-title": "Trams are back" });

  // ... and so do the list (newest first), search, the RSS feed and the AMP page.
  const list = (await (await page.request.get("/api/v1/stories?limit=5&fields=headline")).json()) as {
    stories: { id: string }[];
  };
  expect(list.stories[0]!.id).toBe(story.id);
  const found = (await (
    await page.request.get(`/api/v1/search?q=${encodeURIComponent(`tram ${run}`)}&fields=headline`)
  ).json()) as {
    results: { total: number; stories: { id: string }[] };
  };
  expect(found.results.stories.map((s) => s.id)).toContain(story.id);
  const rss = await page.request.get("/stories.rss");
  expect(rss.headers()["content-type"]).toContain("application/rss+xml");
  const feed = await rss.text();
  expect(feed).toContain(`<title>${headline}</title>`);
  expect(feed).toContain(`<guid isPermaLink="false">${String(story.id)}</guid>`);
  const amp = await page.request.get(`/api/v1/amp/story?slug=${encodeURIComponent(slug)}`);
  expect(amp.status()).toBe(200);
  const ampHtml = await amp.text();
  expect(ampHtml).toMatch(/^<!doctype html>\s*<html ⚡/i);
  expect(ampHtml).toContain(headline);
  expect(ampHtml).toContain("amp-boilerplate");

  // 5. The receiver got the three events, signed, in order, with the section data.
  await expect.poll(() => webhookReceiver.requests.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await page.waitForTimeout(500);
  const received = deliveriesTo(webhookReceiver);
  expect(received).toHaveLength(3);
  const deliveries = received.map((r) => {
    expect(verifyQtSignature(r.body, secret, r.signature)).toBe(true);
    return JSON.parse(r.body) as Delivery;
  });
  const byName = new Map(deliveries.map((d) => [d.v1.event.name, d.v1]));
  expect([...byName.keys()].sort()).toEqual(["story-approve", "story-publish", "story-submit"]);
  expect(byName.get("story-submit")!.event.time).toBeLessThanOrEqual(byName.get("story-publish")!.event.time);
  const published = byName.get("story-publish")!;
  expect(published.data.story).toMatchObject({ slug, status: "published", headline });
  expect(published.data.section).toMatchObject({ id: city.id, "parent-id": parent.id });
  expect(published.data["parent-section"]).toMatchObject({ id: parent.id });
  expect(published.data["section-collection"]).toMatchObject({ slug: expect.stringContaining("city") });
  expect(published.data["changed-by"]).toMatchObject({ name: expect.any(String) });
  expect(published.data).toMatchObject({ "previous-status": "approved", status: "published" });
  expect(byName.get("story-submit")!.data).toMatchObject({ "previous-status": "draft", status: "submitted" });
});

test("a story element the server refuses is named by its card and element, next to it", async ({
  page,
  signIn,
  users,
}) => {
  await signIn(users.editor);
  await page.goto("/admin/content/stories/new");
  await page.getByLabel("Headline", { exact: true }).fill(`Refused element ${Date.now().toString(36)}`);
  await page.getByTestId("add-card").getByRole("button", { name: "+ YouTube" }).click();
  await page.getByLabel("YouTube URL 2.1").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create draft" }).click();

  const element = page.getByTestId("card").nth(1).getByTestId("story-element");
  await expect(element.getByTestId("card-issue")).toContainText("URL:");
  await expect(page.getByRole("alert").filter({ hasText: "Please correct the highlighted fields." })).toBeVisible();
  // No internal path anywhere on the page.
  await expect(page.getByText(/story-elements|cards\.\d/)).toHaveCount(0);
  await expect(page).toHaveURL(/\/stories\/new$/);
});
