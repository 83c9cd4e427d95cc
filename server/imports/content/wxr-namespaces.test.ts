/**
 * The WXR content reader resolves names by namespace URI (xml-stream.ts), on a file reproducing
 * the structures of WordPress importer's namespace-edge-cases.xml: the WXR namespaces under
 * other prefixes or as the default namespace, `wp:` and `content:` bound to other URIs, a WXR 1.1
 * prefix beside 1.2's, a declaration undone where its element closes.
 */
import path from "node:path";

import { describe, expect, it } from "vitest";

import type { ContentPost } from "./records";
import { openWxr } from "./wxr";

const FILE = path.join(import.meta.dirname, "..", "fixtures", "wxr-namespaces.xml");

describe("a WXR whose namespaces have other prefixes", () => {
  it("reads each post's fields by namespace URI and leaves a prefix bound elsewhere unread", async () => {
    const file = await openWxr({ path: FILE, name: "wxr-namespaces.xml" });
    expect(file.problems).toEqual([]);
    const posts: ContentPost[] = [];
    for await (const post of file.posts()) posts.push(post);
    const [own, byDefault, hijacked] = posts;
    expect(own).toMatchObject({
      sourceId: "91",
      title: "Prefixes of its own",
      slug: "prefixes",
      html: "<p>Read by namespace.</p>",
      excerpt: "An excerpt.",
      status: "published",
      date: new Date("2019-03-04T12:00:00Z"),
      authors: [{ sourceId: "ada", name: "Ada Lovelace", email: "ada@example.com" }],
      metadata: {},
      skip: null,
      errors: [],
    });
    expect(byDefault).toMatchObject({
      sourceId: "92",
      slug: "default",
      html: "<p>Default namespace.</p>",
      status: "published",
      date: new Date("2019-03-06T12:00:00Z"),
      authors: [{ sourceId: "bo", name: "Bo Older", email: "bo@example.com" }],
      skip: null,
    });
    // Its wp prefix names another namespace: no post id, no status, no type of WordPress's.
    expect(hijacked).toMatchObject({ sourceId: "", errors: ["it has no wp:post_id"] });
    expect(hijacked!.skip).toMatch(/is not a post's/);
    expect(posts).toHaveLength(3);
  });
});
