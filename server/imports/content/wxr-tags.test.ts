/**
 * No tag or category named in any script is dropped by the WordPress reader: names of any code
 * point XML allows, graphemes and words of many scripts, with and without WordPress's
 * percent-encoded slug, each come out of the file with a valid slug.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

import { isSlug } from "../../text/slug";
import { termSlug } from "./term-slug";
import { openWxr } from "./wxr";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wxr-tags-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Characters XML 1.0 allows in text (no other control characters, no lone surrogates), no CR. */
const xmlChar = (c: string) => /^[\t\n\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]$/u.test(c);
const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const WORDS = ["भारत", "बाढ़", "தமிழ்", "العربية", "中文", "Ελληνικά", "русский", "עברית", "ไทย", "🔥", "🎭", "Café"];
const NAME = fc
  .oneof(
    fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
    fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
  )
  .map((name) => [...name].filter(xmlChar).join(""));

function wxr(tags: { name: string; encoded: boolean }[]): string {
  const categories = tags.map(({ name, encoded }) => {
    const slug = encoded ? ` nicename="${escape(encodeURIComponent(name.trim().toLowerCase()))}"` : "";
    return `<category domain="post_tag"${slug}>${escape(name)}</category>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel><title>T</title><link>https://news.example.com</link><wp:wxr_version>1.2</wp:wxr_version>
<item><title>Post</title><wp:post_id>1</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
<content:encoded>Body</content:encoded>${categories.join("")}</item>
</channel></rss>`;
}

describe("the WordPress reader's tags", () => {
  it("keeps every tag whose name is not blank, in any script, with a valid slug", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ name: NAME, encoded: fc.boolean() }), { maxLength: 8 }), async (tags) => {
        const file = path.join(dir, `${run++}.xml`);
        fs.writeFileSync(file, wxr(tags));
        const content = await openWxr({ path: file, name: "tags.xml" });
        const posts = [];
        for await (const post of content.posts()) posts.push(post);
        const got = posts[0]!.tags;
        for (const tag of got) expect(isSlug(tag.slug), tag.slug).toBe(true);
        const slugs = new Set(got.map((t) => t.slug));
        for (const { name, encoded } of tags) {
          if (name.trim() === "") continue;
          const slug = termSlug(name, encoded ? encodeURIComponent(name.trim().toLowerCase()) : "");
          expect(slugs.has(slug), `${JSON.stringify(name)} → ${slug} in ${[...slugs].join(",")}`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
