/**
 * Writing a story in the dashboard: the rich-text editor (bold by Ctrl+B, a link through the
 * keyboard-usable link dialog, a heading, a list), a quote with attribution, a gallery of two
 * uploaded images, cards reordered by keyboard (the drag handle: Space, arrow, Space); then the
 * content API serves exactly the HTML the editor showed, in the order the editor left.
 */
import {
  expect,
  expectNoHorizontalPageScroll,
  pngFile,
  seriousViolations,
  test,
  trpcCall,
  trpcQuery,
} from "../fixtures";

type Element = { type: string; subtype: string | null; text?: string; metadata: Record<string, unknown> } & Record<
  string,
  unknown
>;
type Card = { "story-elements": Element[] };

test("an editor writes rich text, a quote and a gallery, reorders cards by keyboard, and the API serves it", async ({
  page,
  signIn,
  users,
}) => {
  const run = Date.now().toString(36);
  await signIn(users.owner);
  await page.goto("/admin/content/stories/new");
  await page.getByLabel("Headline", { exact: true }).fill(`Writing ${run}`);

  // 1. Rich text: bold, a link, a heading, a list.
  const text = page.getByLabel("Text 1.1");
  await text.click();
  await page.keyboard.type("Hello ");
  await page.keyboard.press("ControlOrMeta+b");
  await expect(page.getByRole("button", { name: "Bold (Ctrl+B)" })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.type("bold");
  await page.keyboard.press("ControlOrMeta+b");
  await page.keyboard.type(" world");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Read ");
  await page.keyboard.press("ControlOrMeta+k");
  const dialog = page.getByRole("dialog", { name: "Link" });
  await expect(dialog).toBeVisible();
  // A link the server would drop is refused in the dialog.
  await dialog.getByLabel("Address").fill("javascript:alert(1)");
  await page.keyboard.press("Enter");
  await expect(dialog.getByTestId("field-error")).toBeVisible();
  await dialog.getByLabel("Address").fill("example.org/more");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(text.getByRole("link", { name: "example.org/more" })).toHaveAttribute(
    "href",
    "https://example.org/more",
  );
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Heading (Ctrl+Alt+2)" }).click();
  await page.keyboard.type("Section");
  await expect(page.getByRole("button", { name: "Heading (Ctrl+Alt+2)" })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Bulleted list (Ctrl+Shift+8)" }).click();
  await page.keyboard.type("one");
  await page.keyboard.press("Enter");
  await page.keyboard.type("two & three");
  const expectedHtml =
    '<p>Hello <strong>bold</strong> world</p><p>Read <a href="https://example.org/more">example.org/more</a></p>' +
    "<h2>Section</h2><ul><li><p>one</p></li><li><p>two &amp; three</p></li></ul>";

  // 2. A quote with its attribution, in the same card.
  await page.getByTestId("card").first().getByRole("button", { name: "+ Quote" }).click();
  await page.getByLabel("Quote 1.2", { exact: true }).fill("We were ready.");
  await page.getByLabel("Attribution 1.2").fill("The mayor");

  // 3. A gallery of two uploaded images, in a new card.
  await page.getByTestId("add-card").getByRole("button", { name: "+ Gallery" }).click();
  const gallery = page.getByTestId("gallery");
  await page.getByLabel("Add image to gallery 2.1").setInputFiles(pngFile("first.png"));
  await expect(gallery.getByTestId("gallery-image")).toHaveCount(1);
  await page.getByLabel("Add image to gallery 2.1").setInputFiles(pngFile("second.png"));
  await expect(gallery.getByTestId("gallery-image")).toHaveCount(2);
  await page.getByLabel("Caption 2.1.1").fill("First");
  await page.getByLabel("Alt text 2.1.1").fill("A boat");
  await page.getByLabel("Alt text 2.1.2").fill("Sandbags");
  // Focus point: a click on the preview sets it, in the image's pixels (1×1 here).
  await gallery
    .getByTestId("focus-image")
    .first()
    .click({ position: { x: 1, y: 1 } });
  await expect(gallery.getByRole("spinbutton", { name: "x" }).first()).toHaveValue("0");

  // 4. Reorder by keyboard: the gallery's card moves above the text's.
  const handle = page.getByRole("button", { name: "Drag card 2" });
  await handle.focus();
  // Each step waits for its announcement (the sensor listens for the next key only once it has started).
  await page.keyboard.press("Space");
  await expect(handle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("status").filter({ hasText: "Card 2 is over position 2 of 2." })).toBeAttached();
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("status").filter({ hasText: "Card 2 is over position 1 of 2." })).toBeAttached();
  await page.keyboard.press("Space");
  await expect(page.getByRole("status").filter({ hasText: "Card 2 dropped at position 1 of 2." })).toBeAttached();
  await expect(page.getByTestId("card").first().getByTestId("gallery")).toBeVisible();
  await expect(page.getByTestId("card").nth(1).getByLabel("Text 1.1", { exact: false })).toHaveCount(0);
  await expect(page.getByTestId("card").nth(1).getByLabel("Text 2.1")).toBeVisible();
  // And with the buttons: down and back up.
  await page.getByRole("button", { name: "Move card 1 down" }).click();
  await expect(page.getByTestId("card").nth(1).getByTestId("gallery")).toBeVisible();
  await page.getByRole("button", { name: "Move card 2 up" }).click();
  await expect(page.getByTestId("card").first().getByTestId("gallery")).toBeVisible();

  // 5. Save, publish, read through the content API.
  await page.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const id = page.url().split("/").pop()!;
  let { version } = await trpcQuery<{ version: number }>(page.request, "stories.get", { id });
  for (const action of ["submit", "approve", "publish"])
    ({
      story: { version },
    } = await trpcCall<{ story: { version: number } }>(page.request, "stories.transition", { id, version, action }));
  const response = await page.request.get(`/api/v1/stories/${id}`);
  expect(response.status()).toBe(200);
  const { story } = (await response.json()) as { story: { cards: Card[] } };
  const [first, second] = story.cards;
  expect(first!["story-elements"].map((e) => [e.type, e.subtype])).toEqual([["composite", "image-gallery"]]);
  const images = first!["story-elements"][0]!["story-elements"] as Element[];
  expect(images.map((image) => [image.title, image.metadata.alt])).toEqual([
    ["First", "A boat"],
    ["", "Sandbags"],
  ]);
  expect(images[0]!["image-metadata"]).toMatchObject({ "focus-point": [0, 0] });
  expect(second!["story-elements"].map((e) => e.type)).toEqual(["text", "quote"]);
  expect(second!["story-elements"][0]!.text).toBe(expectedHtml);
  expect(second!["story-elements"][1]).toMatchObject({
    text: "We were ready.",
    metadata: { attribution: "The mayor" },
  });

  // 6. The editor shows what was stored, and fits a phone.
  await page.reload();
  await expect(page.getByLabel("Text 2.1").locator("h2")).toHaveText("Section");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByLabel("Text 2.1")).toBeVisible();
  await expectNoHorizontalPageScroll(page);
});

test("paste from Google Docs is cleaned; every element type can be added, fits a phone and has no serious accessibility violation", async ({
  page,
  signIn,
  users,
}) => {
  await signIn(users.owner);
  await page.goto("/admin/content/stories/new");
  await expect(page.getByLabel("Text 1.1")).toBeVisible(); // hydrated: the editor mounts on the client

  // Paste from Google Docs: its bold-looking wrapper does not make the text bold, a bold span does.
  const text = page.getByLabel("Text 1.1");
  await text.click();
  await text.evaluate((editor) => {
    const data = new DataTransfer();
    data.setData(
      "text/html",
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234abcd-7fff-0000-0000-000000000000">' +
        '<h1 dir="ltr"><span style="font-size:20pt;font-weight:400">Pasted title</span></h1>' +
        '<p dir="ltr"><span style="font-weight:400">Plain and </span><span style="font-weight:700">bold</span>' +
        '<span style="font-style:italic;font-weight:400"> and italic</span><span style="color:red"><script>x</script></span></p></b>',
    );
    data.setData("text/plain", "Pasted title\nPlain and bold and italic");
    editor.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(text.locator("h2")).toHaveText("Pasted title");
  await expect(text.locator("strong")).toHaveText(["bold"]);
  await expect(text.locator("em")).toHaveText([" and italic"]);
  await expect(text.locator("p").first()).toHaveText("Plain and bold and italic");
  const kinds = [
    "Title",
    "Summary",
    "Quote",
    "Blockquote",
    "Big fact",
    "Image",
    "Gallery",
    "YouTube",
    "Tweet",
    "Embed",
    "File",
  ];
  for (const kind of kinds)
    await page
      .getByTestId("add-card")
      .getByRole("button", { name: `+ ${kind}`, exact: true })
      .click();
  await expect(page.getByTestId("card")).toHaveCount(kinds.length + 1);
  await page.getByLabel("Upload image 7.1").setInputFiles(pngFile("one.png"));
  await expect(page.getByTestId("focus-image")).toHaveCount(1);
  await page.getByLabel("Add image to gallery 8.1").setInputFiles(pngFile("two.png"));
  await expect(page.getByTestId("gallery-image")).toHaveCount(1);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalPageScroll(page, `the story editor at ${width} px`);
    const serious = await seriousViolations(page);
    expect(serious, serious.join("\n")).toEqual([]);
  }
});
