/**
 * Settings → Languages (docs/i18n.md): an owner finds a paywall message in Hindi, writes their own
 * words with a preview, is told at once when a draft asks for an argument the message is not given,
 * saves, and readers get the words from the SDK's messages; then removes them again. The locales
 * panel saves without changing anything the other specs rely on. At 1440 and 390 px, with axe.
 */
import type { APIRequestContext } from "@playwright/test";

import { expect, expectCleanPage, openSettingsSection, test, VIEWPORTS } from "../fixtures";

const KEY = "mh_pk_demo_public_client_key_local_only";
const WORDS = "अभी {amount} चुकाएँ";

async function sdkPayMessage(request: APIRequestContext): Promise<string> {
  const res = await request.get(`/api/access/v1/messages?key=${KEY}&locale=hi`, {
    headers: { "cache-control": "no-cache" },
  });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { locale: string; dir: string; messages: Record<string, unknown> };
  expect(body.locale).toBe("hi");
  return JSON.stringify(body.messages["sdk.pay"]);
}

for (const size of VIEWPORTS) {
  test(`an owner overrides a reader message in Hindi with a preview, and readers get it (${size.name})`, async ({
    page,
    users,
    signIn,
  }) => {
    await page.setViewportSize(size);
    await signIn(users.owner);
    await openSettingsSection(page, "Languages");
    await expect(page.getByRole("form", { name: "Reader languages" })).toBeVisible();
    await expectCleanPage(page, page.url());

    // The locales panel: saving what is already saved changes nothing.
    await page.getByRole("button", { name: "Save languages" }).click();
    await expect(page.getByText("Nothing had changed.")).toBeVisible();

    await page.getByLabel("Surface", { exact: true }).selectOption("paywall");
    await page.getByLabel("Locale", { exact: true }).selectOption("hi");
    await page.getByRole("searchbox", { name: "Find a message" }).fill("sdk.pay");
    const row = page.getByTestId("message-sdk.pay");
    await row.getByRole("button", { name: "Edit sdk.pay" }).click();
    const editor = row.getByRole("form", { name: "Override of sdk.pay" });
    const field = editor.getByRole("textbox", { name: "Your words (hi)" });
    await expect(field).toHaveAttribute("lang", "hi");

    await field.fill("{total} चुकाएँ");
    await expect(editor.getByTestId("field-error")).toContainText("{total} is not given to this message");
    await expect(editor.getByRole("button", { name: "Save override" })).toBeDisabled();

    await field.fill(WORDS);
    await expect(editor.getByRole("region", { name: "Preview" })).toContainText("अभी ‹amount› चुकाएँ");
    await expectCleanPage(page, page.url());
    await editor.getByRole("button", { name: "Save override" }).click();
    await expect(row.getByText("your words", { exact: true })).toBeVisible();
    await expect(row.getByText(WORDS)).toBeVisible();
    // The SDK's answer is cached; the database announces the purge at the commit, heard a moment later.
    await expect.poll(() => sdkPayMessage(page.request), { timeout: 10_000 }).toContain("चुकाएँ");

    // Removed: readers get the catalogue's words again.
    await row.getByRole("button", { name: "Edit sdk.pay" }).click();
    await row.getByRole("button", { name: "Remove override" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect(row.getByText("your words", { exact: true })).toHaveCount(0);
    await expect.poll(() => sdkPayMessage(page.request), { timeout: 10_000 }).not.toContain("चुकाएँ");
  });
}
