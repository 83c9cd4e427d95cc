// Slugs in Devanagari, Tamil and Arabic (server/text/slug.ts): made by the dashboard from names and
// headlines, and found by the content API whether the client's path or query holds them
// percent-encoded (as browsers send them), decoded (as Next.js hands path parameters over) or
// decomposed.
import { beforeEach, describe, expect, it } from "vitest";

import { getDb } from "@/server/db";
import { forgetPublisherCache } from "@/server/publishing/publisher";
import { NO_PARAMS, readJson, withParams } from "@/server/testing/newsroom-fixture";
import {
  createTestPublisher,
  insertSection,
  insertStory,
  insertTag,
  textCards,
} from "@/server/testing/publishing-factories";
import { createTestStaff, trpcCodeOf } from "@/server/testing/staff";

import * as ampRoute from "./amp/story/route";
import * as collectionRoute from "./collections/[slug]/route";
import * as bySlugRoute from "./stories-by-slug/route";
import * as storiesRoute from "./stories/route";
import * as tagRoute from "./tags/[slug]/route";

const url = (path: string) => new Request(`http://localhost${path}`, { headers: { host: "localhost" } });

beforeEach(() => forgetPublisherCache());

async function newsroom() {
  const db = await getDb();
  const publisher = await createTestPublisher(db);
  const { caller } = await createTestStaff(db, { account: publisher.id, roles: ["EDITOR"] });
  return { db, publisher, caller };
}

describe("slugs in any script", () => {
  it("are made from names and headlines in Devanagari, Tamil and Arabic, readable", async () => {
    const { caller } = await newsroom();
    const tag = await caller.organise.tags.create({ name: "चुनाव 2026" });
    expect(tag.slug).toBe("चुनाव-2026");
    const { section } = await caller.organise.sections.create({ name: "தமிழ்நாடு செய்திகள்" });
    expect(section.slug).toBe("தமிழ்நாடு-செய்திகள்");
    const author = await caller.organise.authors.create({ name: "نور الهدى" });
    expect(author.slug).toBe("نور-الهدى");
    const { collection } = await caller.organise.collections.create({ name: "मुख्य ख़बरें 🗞️" });
    expect(collection.slug).toBe("मुख्य-ख़बरें");
    const { story } = await caller.stories.create({ headline: "भारत में चुनाव: नतीजे आज" });
    expect(story.slug).toBe("भारत-में-चुनाव-नतीजे-आज");
    // A typed slug in another script is accepted (composed, lower-cased); one with Latin accents
    // or punctuation is refused with the rule.
    const typed = await caller.organise.tags.create({ name: "Égypte", slug: "مصر" });
    expect(typed.slug).toBe("مصر");
    for (const slug of ["égypte", "a--b", "चुनाव!"]) {
      expect(await trpcCodeOf(caller.organise.tags.create({ name: "x", slug })), slug).toBe("BAD_REQUEST");
    }
  });

  it("are found by the content API percent-encoded, decoded or decomposed", async () => {
    const { db, publisher } = await newsroom();
    const tag = await insertTag(db, publisher.id, { name: "चुनाव", slug: "चुनाव-2026" });
    const section = await insertSection(db, publisher.id, { name: "செய்திகள்", slug: "செய்திகள்" });
    const story = await insertStory(db, publisher.id, {
      headline: "نتائج الانتخابات",
      slug: "نتائج-الانتخابات",
      tagIds: [tag.id],
      sectionIds: [section.id],
      cards: textCards("أعلنت اللجنة النتائج."),
    });
    const collection = await db.collection.create({
      data: {
        accountId: publisher.id,
        slug: "ख़बरें",
        name: "ख़बरें",
        items: { create: [{ storyId: story.id, position: 0 }] },
      },
    });

    for (const form of [
      (s: string) => encodeURIComponent(s),
      (s: string) => s,
      (s: string) => s.normalize("NFD"),
      (s: string) => encodeURIComponent(encodeURIComponent(s)),
    ]) {
      const tagRes = await tagRoute.GET(
        url(`/api/v1/tags/${encodeURIComponent(tag.slug)}`),
        withParams({ slug: form(tag.slug) }),
      );
      expect(tagRes.status).toBe(200);
      expect((await readJson<{ tags: { id: number }[] }>(tagRes)).tags.map((t) => t.id)).toEqual([tag.id]);

      const bySlug = await bySlugRoute.GET(
        url(`/api/v1/stories-by-slug?slug=${encodeURIComponent(form(story.slug))}`),
        NO_PARAMS,
      );
      expect(bySlug.status).toBe(200);
      expect((await readJson<{ story: { id: string } }>(bySlug)).story.id).toBe(story.id);

      const listed = await storiesRoute.GET(
        url(
          `/api/v1/stories?section=${encodeURIComponent(form(section.slug))}&tag=${encodeURIComponent(form(tag.slug))}`,
        ),
        NO_PARAMS,
      );
      expect(listed.status).toBe(200);
      expect((await readJson<{ stories: { id: string }[] }>(listed)).stories.map((s) => s.id)).toEqual([story.id]);

      const col = await collectionRoute.GET(
        url(`/api/v1/collections/${encodeURIComponent(collection.slug)}`),
        withParams({ slug: form(collection.slug) }),
      );
      expect(col.status).toBe(200);
      expect((await readJson<{ id: number }>(col)).id).toBe(collection.id);

      const amp = await ampRoute.GET(url(`/api/v1/amp/story?slug=${encodeURIComponent(form(story.slug))}`), NO_PARAMS);
      expect(amp.status).toBe(200);
    }
    const missing = await tagRoute.GET(url("/api/v1/tags/x"), withParams({ slug: encodeURIComponent("चुनाव-2027") }));
    expect(missing.status).toBe(404);
    const malformed = await tagRoute.GET(url("/api/v1/tags/x"), withParams({ slug: "%E0%A4" }));
    expect(malformed.status).toBe(404);
  });
});
