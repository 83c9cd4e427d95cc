/**
 * A contributor (issue 41): the owner adds one on Users & keys; they see only Content → Stories,
 * write a draft and submit it, and are offered no Approve, Publish, Schedule or bulk actions (the
 * server refuses them too, 403). The owner's "Editors may not approve or publish a story they
 * wrote" and the Preview URL are on Users & keys. At 1440 and 390 px, with axe.
 */
import {
  expect,
  expectNoHorizontalPageScroll,
  seriousViolations,
  submitSignIn,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const size of SIZES) {
  test(`a contributor writes and submits a story but cannot publish it (${size.name})`, async ({
    page,
    browser,
    users,
    signIn,
  }) => {
    const run = `${size.name}-${Date.now().toString(36)}`;
    const contributor = { email: `cora-${run}@example.com`, password: `contrib-${run}-pass` };

    // 1. The owner adds the contributor, with a password, and sees the editorial settings.
    await signIn(users.owner);
    await trpcCall(page.request, "staff.create", {
      name: `Cora ${run}`,
      email: contributor.email,
      roles: ["CONTRIBUTOR"],
      password: contributor.password,
    });
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto("/admin/users");
    await expect(page.getByText(`Cora ${run}`)).toBeVisible();
    const rules = page.getByTestId("editorial-rules");
    await expect(rules.getByLabel("Editors may not approve or publish a story they wrote")).not.toBeChecked();
    await rules.getByLabel("Preview URL").fill("https://news.example.com/preview");
    await rules.getByRole("button", { name: "Save preview URL" }).click();
    await expect(rules.getByText("must contain {token}, where the preview token goes")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await expectNoHorizontalPageScroll(page);

    // 2. The contributor signs in: only Overview and Content → Stories.
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const writer = await context.newPage();
    await writer.goto("/admin/sign-in");
    await submitSignIn(writer, contributor);
    await expect(writer).toHaveURL(/\/admin$/);
    if (size.width >= 1024) {
      const nav = writer.getByRole("navigation", { name: "Dashboard" });
      await expect(nav.getByRole("link", { name: "Content", exact: true })).toHaveAttribute(
        "href",
        "/admin/content/stories",
      );
      for (const hidden of ["Collections", "Authors", "Users & keys", "Settings", "Engagement"])
        await expect(nav.getByRole("link", { name: hidden, exact: true })).toHaveCount(0);
    }
    expect((await writer.goto("/admin/content/authors"))?.status()).toBe(403);

    // 3. The stories list: no choosing for bulk actions; then a new draft.
    await writer.goto("/admin/content/stories");
    await expect(writer.getByRole("heading", { name: "Stories", level: 1 })).toBeVisible();
    await expect(writer.getByTestId("story-row").first()).toBeVisible();
    await expect(writer.getByLabel("Choose all on this page")).toHaveCount(0);
    await expect(writer.getByRole("tab", { name: "Authors" })).toHaveCount(0);
    expect(await seriousViolations(writer)).toEqual([]);
    await expectNoHorizontalPageScroll(writer);

    await writer.goto("/admin/content/stories/new");
    await writer.getByLabel("Headline", { exact: true }).fill(`Council meets ${run}`);
    await writer.getByLabel("Text 1.1").click();
    await writer.keyboard.type("The council met at six.");
    await writer.getByRole("button", { name: "Create draft" }).locator("visible=true").first().click();
    await expect(writer).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/);
    const id = writer.url().split("/").pop()!;
    await expect(writer.getByTestId("story-status").first()).toHaveAttribute("data-status", "DRAFT");

    // Only Submit is offered; no Publish, Approve or scheduling.
    await expect(writer.getByRole("button", { name: "Publish", exact: true })).toHaveCount(0);
    await expect(writer.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
    await writer.getByRole("button", { name: "Submit", exact: true }).locator("visible=true").first().click();
    await expect(writer.getByTestId("story-status").first()).toHaveAttribute("data-status", "SUBMITTED");
    await expect(writer.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
    await expect(writer.getByTestId("story-read-only")).toBeVisible();
    // Read-only for real: the fields are disabled, the text is not editable, and nothing tries to save.
    let saves = 0;
    writer.on("request", (request) => {
      if (request.url().includes("stories.update")) saves++;
    });
    await expect(writer.getByLabel("Headline", { exact: true })).toBeDisabled();
    await expect(writer.getByLabel("Summary (optional)", { exact: true })).toBeDisabled();
    await expect(writer.getByLabel("Access", { exact: true })).toBeDisabled();
    await expect(writer.getByLabel("Text 1.1")).toHaveAttribute("contenteditable", "false");
    await writer.getByLabel("Text 1.1").click();
    await writer.keyboard.type(" More words.");
    await expect(writer.getByLabel("Text 1.1")).not.toContainText("More words.");
    await expect(writer.getByTestId("save-status")).toHaveAttribute("data-state", "saved");
    await writer.waitForTimeout(3_000);
    expect(saves).toBe(0);
    expect(await seriousViolations(writer)).toEqual([]);
    await expectNoHorizontalPageScroll(writer);

    // The server refuses what the page does not offer.
    const story = await trpcQuery<{ version: number }>(writer.request, "stories.get", { id });
    const refused = await writer.request.post("/api/trpc/stories.transition", {
      data: { json: { id, version: story.version, action: "approve" } },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain("an editor approves, publishes and schedules them");
    await context.close();

    // 4. An editor (here the owner) approves it.
    await page.goto(`/admin/content/stories/${id}`);
    await expect(
      page.getByRole("button", { name: "Approve", exact: true }).locator("visible=true").first(),
    ).toBeVisible();
  });
}
