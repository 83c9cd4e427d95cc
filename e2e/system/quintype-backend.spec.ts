/**
 * The real @quintype/backend client (what publisher front ends run server-side) against the
 * running app: the built Next.js server with its demo publisher, exactly as a front end meets it.
 * The integration tests run the same client against the route handlers on controlled data; this
 * proves the deployed routing (paths, the bulk-request 303, encodings) serves it too.
 */
import { expect, test } from "@playwright/test";
import { Author, Client, Collection, Story } from "@quintype/backend";

test("@quintype/backend reads config, stories, a collection two levels deep, search and authors from the running app", async ({
  baseURL,
}) => {
  const client = new Client(baseURL!, true);
  const quiet = console.error;
  // The client logs every non-2xx ("Error in API …") before turning a 404 into null.
  console.error = () => undefined;
  try {
    const config = await client.getConfig();
    expect(config["sketches-host"]).toEqual(expect.any(String));
    expect(Array.isArray(config.sections)).toBe(true);

    const stories = await Story.getStories(client, "top", { limit: 5 });
    expect(stories).toHaveLength(5);
    for (const story of stories) expect(story.id).toMatch(/^[0-9a-f-]{36}$/);
    const first = stories[0]!;

    const bySlug = await Story.getStoryBySlug(client, String(first.slug));
    expect(bySlug?.id).toBe(first.id);
    expect(await Story.getStoryBySlug(client, "no/such-story")).toBeNull();
    expect((await Story.getStoryById(client, String(first.id)))?.headline).toBe(first.headline);

    // Depth 2: the home collection's child collections come through POST /api/v1/bulk-request → 303 → GET.
    const home = (await Collection.getCollectionBySlug(
      client,
      "home",
      { "item-type": "collection" },
      { depth: 2 },
    )) as {
      items: { type: string; slug?: string; items?: unknown[] }[];
    } | null;
    expect(home).not.toBeNull();
    const children = home!.items.filter((item) => item.type === "collection");
    expect(children.length).toBeGreaterThan(0);
    expect(children.some((child) => (child.items ?? []).length > 0)).toBe(true);

    const search = await Story.getSearch(client, { q: String(first.headline).split(" ")[0], limit: 3 });
    expect(search.stories.length).toBeGreaterThan(0);

    // The AMP page: the client asks for JSON, and gets the page inside a JSON object.
    const amp = (await client.getAmpStoryBySlug(String(first.slug))) as Record<string, unknown>;
    expect(amp).toMatchObject({ id: first.id, slug: first.slug, headline: first.headline });
    expect(String(amp["amp-html"])).toMatch(/^<!doctype html>/);

    const authors = await Author.getAuthors(client, { limit: 3 });
    expect(authors.length).toBeGreaterThan(0);
    expect(authors[0]!.name).toEqual(expect.any(String));
  } finally {
    console.error = quiet;
  }
});
