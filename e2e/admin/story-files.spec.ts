/**
 * A story's file element with an uploaded document, at desktop and phone sizes: an editor adds a
 * file element, uploads a small PDF (made here) with the keyboard-usable button, sees its name and
 * size, saves and publishes; the content API serves the element with the file's link, which downloads as a PDF
 * in a sandbox. No serious accessibility violation on the way.
 */
import { testPdf } from "../../server/testing/documents";
import { expect, seriousViolations, test, trpcCall, trpcQuery } from "../fixtures";

type Element = { type: string; subtype: string | null } & Record<string, unknown>;

const VIEWPORTS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

for (const viewport of VIEWPORTS) {
  test(`an editor uploads a PDF into a file element and the API serves it as a download (${viewport.name})`, async ({
    page,
    signIn,
    users,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const run = `${viewport.name}-${Date.now().toString(36)}`;
    await signIn(users.editor);
    await page.goto("/admin/content/stories/new");
    await expect(page.getByLabel("Text 1.1")).toBeVisible(); // hydrated
    await page.getByLabel("Headline", { exact: true }).fill(`Council papers ${run}`);
    await page.getByLabel("Text 1.1").click();
    await page.keyboard.type("The papers are attached.");

    await page.getByTestId("add-card").getByRole("button", { name: "+ File", exact: true }).click();
    const upload = page.getByLabel("Upload file 2.1");
    await expect(upload).toHaveAccessibleDescription(/PDF, Word \(\.docx\).*; at most \d/);
    expect(await seriousViolations(page), "before the upload").toEqual([]);

    // Something that is not an accepted document is refused, in words, and nothing is filled in.
    await upload.setInputFiles({ name: "page.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html></html>") });
    await expect(page.getByRole("alert").filter({ hasText: "Upload a PDF, Word" })).toBeVisible();
    await expect(page.getByLabel("File link 2.1")).toHaveValue("");

    const pdf = testPdf(`Budget ${run}`);
    expect(pdf.length).toBeLessThan(1024); // so its size reads in bytes
    await upload.setInputFiles({ name: `Budget ${run}.pdf`, mimeType: "application/pdf", buffer: pdf });
    const status = page.getByTestId("file-upload-status");
    await expect(status).toHaveText(`Uploaded “Budget ${run}.pdf” (${pdf.length} B).`);
    await expect(page.getByLabel("File link 2.1")).toHaveValue(
      /\/files\/\d+\/files\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.pdf$/,
    );
    await expect(page.getByLabel("File name 2.1")).toHaveValue(`Budget ${run}.pdf`);
    await expect(page.getByLabel("Replace file 2.1")).toBeVisible();
    expect(await seriousViolations(page), "after the upload").toEqual([]);

    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page).toHaveURL(/\/admin\/content\/stories\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    const id = page.url().split("/").pop()!;

    // Published, so the content API serves it.
    let { version } = await trpcQuery<{ version: number }>(page.request, "stories.get", { id });
    for (const action of ["submit", "approve", "publish"])
      ({
        story: { version },
      } = await trpcCall<{ story: { version: number } }>(page.request, "stories.transition", { id, version, action }));
    const response = await page.request.get(`/api/v1/stories/${id}`);
    expect(response.status()).toBe(200);
    const { story } = (await response.json()) as { story: { cards: { "story-elements": Element[] }[] } };
    const file = story.cards.flatMap((card) => card["story-elements"]).find((element) => element.type === "file");
    expect(file).toMatchObject({
      subtype: "attachment",
      "file-name": `Budget ${run}.pdf`,
      "content-type": "application/pdf",
    });
    const url = file!["file-url"] as string;
    expect(url).toMatch(/^http:\/\/localhost:\d+\/files\//);

    // The link downloads the same bytes as a PDF, never as a page of our site.
    const download = await page.request.get(url);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");
    expect(download.headers()["content-disposition"]).toMatch(/^attachment; /);
    expect(download.headers()["x-content-type-options"]).toBe("nosniff");
    expect(download.headers()["content-security-policy"]).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await download.body())).toEqual(pdf);

    // Reloaded, the editor shows the stored element.
    await page.reload();
    await expect(page.getByLabel("File name 2.1")).toHaveValue(`Budget ${run}.pdf`);
    await expect(page.getByLabel("File link 2.1")).toHaveValue(url);
  });
}
