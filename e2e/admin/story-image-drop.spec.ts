/**
 * Dropping or pasting an image into a story's text (issue 41): it is uploaded, a placeholder
 * shows meanwhile, and an image element goes in where it was put, splitting the text; a file the
 * upload does not take is refused in words and changes nothing. Events are dispatched with a real
 * DataTransfer holding a real PNG, as a browser's drop and paste carry them.
 */
import type { Page } from "@playwright/test";

import { expect, pngFile, seriousViolations, test } from "../fixtures";

async function dispatchFile(
  page: Page,
  kind: "drop" | "paste",
  file: { name: string; mimeType: string; base64: string },
) {
  await page.getByLabel("Text 1.1", { exact: true }).evaluate(
    (target, { kind, file }) => {
      const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], file.name, { type: file.mimeType }));
      // Dropped on the first paragraph's first line (its middle), wherever fonts put it.
      const box = (target.querySelector("p") ?? target).getBoundingClientRect();
      const event =
        kind === "drop"
          ? new DragEvent("drop", {
              dataTransfer: data,
              bubbles: true,
              cancelable: true,
              clientX: box.left + 10,
              clientY: box.top + Math.min(box.height / 2, 10),
            })
          : new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    { kind, file },
  );
}

const png = (name: string) => {
  const file = pngFile(name);
  return { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") };
};

for (const size of [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const) {
  test(`an image dropped or pasted into the text becomes an image element there (${size.name})`, async ({
    page,
    signIn,
    users,
  }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(users.editor);
    await page.goto("/admin/content/stories/new");
    await page.getByLabel("Headline", { exact: true }).fill(`Dropped ${Date.now().toString(36)}`);
    const text = page.getByLabel("Text 1.1", { exact: true });
    await text.click();
    await page.keyboard.type("First paragraph.");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Second paragraph.");

    // Paste with the caret in the second paragraph: the image goes after it.
    await dispatchFile(page, "paste", png("pasted.png"));
    await expect(page.locator('[data-testid="story-element"][data-type="image"]')).toHaveCount(1);
    await expect(page.getByTestId("image-drop-placeholder")).toHaveCount(0);

    // Drop at the top of the text: the first paragraph stays, the rest moves below the new image.
    await dispatchFile(page, "drop", png("dropped.png"));
    await expect(page.locator('[data-testid="story-element"][data-type="image"]')).toHaveCount(2);
    await expect(page.getByLabel("Text 1.1", { exact: true })).toContainText("First paragraph.");
    await expect(page.getByLabel("Text 1.1", { exact: true })).not.toContainText("Second paragraph.");
    await expect(page.getByLabel("Text 1.2", { exact: true })).toHaveCount(0); // 1.2 is the image now
    await expect(page.locator('[data-testid="story-element"][data-type="text"]')).toHaveCount(2);

    // A file the upload does not take: refused in words, nothing added.
    await dispatchFile(page, "paste", { name: "notes.svg", mimeType: "image/svg+xml", base64: btoa("<svg/>") });
    await expect(page.getByTestId("image-drop-error")).toContainText(
      "“notes.svg” was not added: only JPEG, PNG, WebP and GIF images can be uploaded.",
    );
    await expect(page.locator('[data-testid="story-element"][data-type="image"]')).toHaveCount(2);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
