/**
 * The old Ghost site's address in an export (ghost-urls.ts) and the Ghost reader's refusal when it
 * is not known: __GHOST_URL__ and root-relative paths made absolute, JSON bodies kept valid, images
 * that cannot be kept named, the body split at the members-only marker.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ImportFileError } from "../types";
import { ghostOpener } from "./ghost";
import { absoluteHtml, ghostBase, ghostUrlOf, splitAtPaywall, unkeptImages, withGhostUrls } from "./ghost-urls";

const BASE = "https://old.example.org/blog";

describe("the old Ghost site's address", () => {
  it("is --ghost-url, else the account's site URL, without a trailing slash", () => {
    expect(ghostBase({ ghostUrl: `${BASE}/`, siteUrl: "https://news.example.com" })).toBe(BASE);
    expect(ghostBase({ siteUrl: "https://news.example.com/" })).toBe("https://news.example.com");
    expect(ghostBase({ siteUrl: null })).toBeNull();
  });

  it("replaces __GHOST_URL__ and root-relative paths, keeping JSON bodies valid", () => {
    const row = withGhostUrls(
      {
        feature_image: "/content/images/a.jpg",
        html: '<a href="__GHOST_URL__/x/">x</a>',
        lexical: JSON.stringify({ src: "__GHOST_URL__/content/images/b.jpg" }),
        count: 3,
      },
      'https://o.example/"q"',
    );
    expect(row.feature_image).toBe('https://o.example/"q"/content/images/a.jpg');
    expect(row.html).toBe('<a href="https://o.example/"q"/x/">x</a>');
    expect(JSON.parse(row.lexical as string)).toEqual({ src: 'https://o.example/"q"/content/images/b.jpg' });
    expect(row.count).toBe(3);
    expect(ghostUrlOf("//cdn.example/a.jpg", BASE)).toBe("//cdn.example/a.jpg");
    expect(
      absoluteHtml('<img src="/content/images/c.png"><a href=\'/about/\'>a</a><img src="//cdn.example/d.png">', BASE),
    ).toBe(`<img src="${BASE}/content/images/c.png"><a href='${BASE}/about/'>a</a><img src="//cdn.example/d.png">`);
  });

  it("names the images that cannot be kept, and splits at the first members-only marker", () => {
    expect(
      unkeptImages('<img src="https://a.example/x.jpg"><img alt="" src="data:image/png;base64,AA"><img src="">'),
    ).toEqual(["data:image/png;base64,AA", "(empty)"]);
    expect(splitAtPaywall("<p>a</p><!-- members-only --><p>b</p><!--members-only--><p>c</p>")).toEqual({
      free: "<p>a</p>",
      locked: "<p>b</p><!--members-only--><p>c</p>",
    });
    expect(splitAtPaywall("<p>a</p>")).toBeNull();
  });

  it("refuses an export that needs it, before reading a post, when neither --ghost-url nor the site URL is known", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ghost-urls-"));
    const file = { path: path.join(dir, "export.json"), name: "export.json" };
    const post = (html: string) => ({ id: "1", title: "First", slug: "first", status: "published", html });
    const write = (html: string) =>
      fs.writeFileSync(file.path, JSON.stringify({ db: [{ data: { posts: [post(html)] } }] }));
    try {
      write('<img src="__GHOST_URL__/content/images/a.jpg">');
      await expect(ghostOpener()(file, { siteUrl: null })).rejects.toThrow(ImportFileError);
      await expect(ghostOpener()(file, { siteUrl: null })).rejects.toThrow(
        /export\.json names the old Ghost site's own address as __GHOST_URL__ .* in 1 post\(s\), first "First".*--ghost-url/,
      );
      await expect(ghostOpener({ ghostUrl: BASE })(file, { siteUrl: null })).resolves.toMatchObject({ count: 1 });
      write('<img src="/content/images/a.jpg">');
      await expect(ghostOpener()(file)).rejects.toThrow(ImportFileError);
      write('<img src="https://cdn.example/a.jpg">');
      await expect(ghostOpener()(file)).resolves.toMatchObject({ count: 1 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
