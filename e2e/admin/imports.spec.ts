/**
 * The Import page: an owner uploads the Disqus sample, reads the dry run's report, imports it and
 * follows the progress bar to the end and the counts; the same file uploaded again would create
 * nothing (everything it holds is skipped or refused as before). The server's local runner runs
 * the jobs. The page passes axe and fits the window at desktop and phone sizes.
 */
import path from "node:path";

import type { Page } from "@playwright/test";

import { expect, expectNoHorizontalPageScroll, seriousViolations, test } from "../fixtures";

const SAMPLE = path.join(import.meta.dirname, "..", "..", "server", "imports", "fixtures", "disqus-sample.xml");
const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** The sample's threads are on news.example.com: the account must count it as one of its hosts. */
async function addSampleHost(page: Page) {
  await page.goto("/admin/settings");
  // Loaded once the site's address is in (the demo account has one).
  await expect(page.getByLabel("Public URL of the site")).not.toHaveValue("");
  const domains = page.getByLabel(/Other domains/);
  await expect(domains).toBeEditable();
  const current = await domains.inputValue();
  if (current.split("\n").includes("news.example.com")) return;
  await domains.fill([current.trim(), "news.example.com"].filter(Boolean).join("\n"));
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByTestId("settings-saved")).toContainText("Settings saved");
}

/** Upload the sample as a Disqus export; the dry run's report comes back. */
async function uploadSample(page: Page) {
  await page.getByLabel("What the file is").selectOption("disqus");
  await page.getByLabel("Export file").setInputFiles(SAMPLE);
  await page.getByRole("button", { name: "Upload and check" }).click();
  const upload = page.getByTestId("import-upload");
  await expect(upload.getByTestId("import-state")).toHaveText("Dry run: Completed", { timeout: 30_000 });
  await expect(upload.getByTestId("dry-run-report")).toBeVisible();
  return upload;
}

async function expectAccessibleAndFitting(page: Page, what: string) {
  expect(await seriousViolations(page), what).toEqual([]);
  await expectNoHorizontalPageScroll(page, what);
}

for (const viewport of VIEWPORTS) {
  test(`an owner imports the Disqus sample after its dry run, and a second import of it would create nothing (${viewport.name})`, async ({
    page,
    users,
    signIn,
  }) => {
    test.slow();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(users.owner);
    await addSampleHost(page);

    await page.goto("/admin");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const importLink = nav.getByRole("link", { name: "Import", exact: true });
    // On a phone the navigation folds into its Menu button.
    if (viewport.name === "phone") await nav.getByRole("button", { name: "Menu" }).click();
    await importLink.click();
    await expect(page.getByRole("heading", { name: "Import", level: 1 })).toBeVisible();
    // Every source of the registry is offered, with its description.
    await expect(page.getByLabel("What the file is").locator("option", { hasText: "disqus:" })).toHaveCount(1);
    await expectAccessibleAndFitting(page, `import page (${viewport.name})`);

    // 1. The dry run: its report, nothing imported yet.
    const upload = await uploadSample(page);
    const dry = upload.getByTestId("dry-run-report");
    const wouldCreate = Number(
      (await dry.getByTestId("report-kind-comment").getByTestId("count-create").textContent())!.replace(/,/g, ""),
    );
    await expect(dry.getByTestId("report-text")).toContainText("DRY RUN: nothing was changed", { useInnerText: false });
    // The dashboard's runs are quiet and keyed by the site the file names (docs/migration.md).
    await expect(dry.getByTestId("report-text")).toContainText("quiet: no webhook and no e-mail is sent", {
      useInnerText: false,
    });
    await expectAccessibleAndFitting(page, `dry-run report (${viewport.name})`);

    // 2. Confirm: the button says what it will create.
    const confirm = upload.getByTestId("import-confirm");
    // (The phone's run follows the desktop's on the same account: then there is nothing new.)
    await expect(confirm).toHaveText(wouldCreate > 0 ? /^Import: create .*comments?/ : "Import: create nothing new");
    await confirm.click();
    // The bar shows while the import is queued or running, and goes once it has finished.
    const progress = upload.getByTestId("import-progress");
    await expect(upload.getByTestId("import-state")).toHaveText("Import: Completed", { timeout: 60_000 });
    await expect(progress).toHaveCount(0);
    const report = upload.getByTestId("import-report");
    await expect(report).toBeVisible();
    // A real run: the counts are what the dry run said.
    const created = report.getByTestId("report-kind-comment").getByTestId("count-create");
    await expect(created).toHaveText(wouldCreate.toLocaleString("en"));
    await expect(report.getByTestId("report-text")).toContainText("completed", { useInnerText: false });

    // The run is listed, with who ran it.
    const run = page.getByTestId("import-run").first();
    await expect(run).toContainText("disqus-sample.xml");
    await expect(run).toContainText("Completed");
    await expectAccessibleAndFitting(page, `import report (${viewport.name})`);

    // 3. The same file again: its dry run would create nothing.
    const again = await uploadSample(page);
    const second = again.getByTestId("dry-run-report");
    await expect(second.getByTestId("report-kind-comment").getByTestId("count-create")).toHaveText("0");
    await expect(second.getByTestId("report-kind-member").getByTestId("count-create")).toHaveText("0");
    await expect(second.getByTestId("report-kind-page").getByTestId("count-create")).toHaveText("0");
    await expect(again.getByTestId("import-confirm")).toHaveText("Import: create nothing new");
    await again.getByTestId("import-confirm").click();
    await expect(again.getByTestId("import-state")).toHaveText("Import: Completed", { timeout: 60_000 });
    await expect(
      again.getByTestId("import-report").getByTestId("report-kind-comment").getByTestId("count-create"),
    ).toHaveText("0");
    await expect(page.getByTestId("import-run").first()).toContainText("skipped");
  });
}

test("the Import page and its API are the owner's alone", async ({ page, users, signIn }) => {
  await signIn(users.editor);
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Import" })).toHaveCount(
    0,
  );
  const response = await page.goto("/admin/import");
  expect(response?.status()).toBe(403);
  const api = await page.request.post("/api/admin/imports?source=disqus&name=a.xml", { data: "<disqus/>" });
  expect(api.status()).toBe(403);
});

const RAZORPAY = path.join(
  import.meta.dirname,
  "..",
  "..",
  "server",
  "imports",
  "fixtures",
  "razorpay-subscriptions.csv",
);

test("an owner gives a file its options, maps its old plans on the page, and the dry run reads it mapped", async ({
  page,
  users,
  signIn,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(users.owner);
  await page.goto("/admin/import");
  const source = page.getByLabel("What the file is");

  // Each source shows the options it takes; one it cannot hold is named at its field.
  await source.selectOption("ghost");
  const ghostUrl = page.getByLabel(/Address of the old Ghost site/);
  await expect(ghostUrl).toBeVisible();
  await expect(page.getByLabel(/When the file was exported/)).toHaveCount(0);
  await ghostUrl.fill("ftp://old.example.org");
  await page.getByLabel("Export file").setInputFiles(RAZORPAY);
  await page.getByRole("button", { name: "Upload and check" }).click();
  await expect(page.getByTestId("import-upload-error")).toBeVisible();
  await expect(ghostUrl).toHaveAttribute("aria-invalid", "true");

  // A subscriptions CSV as of its export: its dry run lists the old plan, every row refused unmapped.
  await source.selectOption("subscriptions");
  await expect(ghostUrl).toHaveCount(0);
  await page.getByLabel(/When the file was exported/).fill("2026-09-25T00:00");
  await page.getByLabel("Export file").setInputFiles(RAZORPAY);
  await page.getByRole("button", { name: "Upload and check" }).click();
  const upload = page.getByTestId("import-upload");
  await expect(upload.getByTestId("import-state")).toHaveText("Dry run: Completed", { timeout: 30_000 });
  await expect(upload.getByTestId("import-options-used")).toContainText(/as of 25 Sept? 2026, 00:00 UTC/);
  const mapping = upload.getByTestId("plan-mapping");
  const oldPlan = mapping.getByLabel(/plan_RZP_MONTHLY/);
  await expect(oldPlan).toHaveValue("");
  const created = upload
    .getByTestId("dry-run-report")
    .getByTestId("report-kind-subscription")
    .getByTestId("count-create");
  await expect(created).toHaveText("0");
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expectAccessibleAndFitting(page, `plan mapping (${size.width} px)`);
  }

  // Mapped onto one of the account's plans: checked again, the rows now planned.
  const firstPlan = (await oldPlan.locator("option").nth(1).getAttribute("value")) ?? "";
  expect(firstPlan).toMatch(/^\d+$/);
  await oldPlan.selectOption(firstPlan);
  await mapping.getByTestId("plan-mapping-save").click();
  await expect(upload.getByTestId("import-options-used")).toContainText("1 of 1 old plans mapped");
  await expect(upload.getByTestId("import-state")).toHaveText("Dry run: Completed", { timeout: 30_000 });
  await expect(created).not.toHaveText("0");
  await expect(upload.getByTestId("plan-mapping").getByLabel(/plan_RZP_MONTHLY/)).toHaveValue(firstPlan);
});
